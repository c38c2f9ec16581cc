import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { FormFailure, saveFailure, type SaveFailure } from '@/components/form/form-failure';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { TextAreaField, TextField } from '@/components/form/text-field';
import type { Product } from '@/types/api';
import { useCreateProductMutation, useUpdateProductMutation } from '../api/products-admin-api';
import {
  addSizeLabel,
  buildProductPayload,
  emptyProductForm,
  isImageFile,
  productToForm,
  sizeTotal,
  toSizeQuantity,
  type ProductFormValues,
} from '../product-form';
import styles from './admin-products.module.css';

type ProductFormProps = {
  /** The product being edited; null in add mode. */
  product: Product | null;
  /** Leaves edit mode (Cancel Edit, or after a successful update). */
  onDone: () => void;
};

type TextKey = Exclude<keyof ProductFormValues, 'sizes'>;

/** Add or edit a product: the seed's fields, an image file, and the size-quantity map. */
export function ProductForm({ product, onDone }: ProductFormProps) {
  const dispatch = useAppDispatch();
  const [values, setValues] = useState<ProductFormValues>(() =>
    product ? productToForm(product) : emptyProductForm(),
  );
  const [image, setImage] = useState<File | null>(null);
  const [newSize, setNewSize] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [sizeError, setSizeError] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [createProduct, createState] = useCreateProductMutation();
  const [updateProduct, updateState] = useUpdateProductMutation();
  const imageId = useId();
  const newSizeId = useId();
  const isEdit = product !== null;
  const busy = createState.isLoading || updateState.isLoading;
  const bySize = sizeTotal(values.sizes);

  const field = (key: TextKey) => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [key]: event.target.value }),
  });

  const addSize = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const result = addSizeLabel(values.sizes, newSize);
    if (result.added) {
      setValues({ ...values, sizes: result.sizes });
      setNewSize('');
      setSizeError(null);
    } else if (newSize.trim()) {
      setSizeError(`Size ${newSize.trim()} is already in the list`);
    }
  };

  const setSizeQuantity = (label: string, input: string) =>
    setValues({
      ...values,
      sizes: values.sizes.map((row) => (row.label === label ? { ...row, quantity: toSizeQuantity(input) } : row)),
    });

  const removeSize = (label: string) =>
    setValues({ ...values, sizes: values.sizes.filter((row) => row.label !== label) });

  const pickImage = (file: File | null) => {
    if (file && !isImageFile(file)) {
      setImage(null);
      setImageError('Only image files are allowed');
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setImageError(null);
    setImage(file);
  };

  const reset = () => {
    setValues(emptyProductForm());
    setImage(null);
    setNewSize('');
    setError(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const built = buildProductPayload(values);
    if (!built.ok) {
      setError(built.message);
      dispatch(notificationShown({ type: 'error', message: built.message }));
      return;
    }
    setError(null);
    setFailure(null);
    if (product) {
      try {
        await updateProduct({ id: product.id, payload: built.payload, image }).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Product updated' }));
        onDone();
      } catch (error) {
        setFailure(saveFailure('Update failed', error));
        dispatch(failureShown('Update failed', error));
      }
      return;
    }
    try {
      await createProduct({ payload: built.payload, image }).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Product added' }));
      reset();
    } catch (error) {
      setFailure(saveFailure('Add failed', error));
      dispatch(failureShown('Add failed', error));
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-label="Product form">
      <h2 className={styles.formTitle}>{isEdit ? `Edit product: ${product.name}` : 'Add product'}</h2>
      <div className={styles.fields}>
        <TextField label="Name" name="name" required {...field('name')} />
        <TextField label="Price (₹)" name="price" type="number" min={0} step="0.01" required {...field('price')} />
        <TextField label="Category" name="category" {...field('category')} />
        <TextField
          label="Quantity"
          name="quantity"
          type="number"
          min={0}
          step={1}
          required
          {...field('quantity')}
          value={bySize > 0 ? String(bySize) : values.quantity}
          disabled={bySize > 0}
        />
        <TextField label="Size" name="size" {...field('size')} />
        <TextField label="Color" name="color" {...field('color')} />
        <TextField label="Brand" name="brand" {...field('brand')} />
        <TextField label="Material" name="material" {...field('material')} />
      </div>
      {bySize > 0 ? (
        <p className={styles.hint}>Sold by size: the quantity is the sum of the sizes ({bySize}).</p>
      ) : null}
      <TextAreaField label="Description" rows={3} {...field('description')} />
      <div className="field">
        <label className="field-label" htmlFor={imageId}>
          Image
        </label>
        <input
          ref={fileInput}
          id={imageId}
          className="input"
          type="file"
          accept="image/*"
          onChange={(event) => pickImage(event.target.files?.[0] ?? null)}
        />
        {imageError ? <p className="field-error">{imageError}</p> : null}
        {isEdit && product.image && !image ? (
          <p className={styles.hint}>Leave empty to keep the current image.</p>
        ) : null}
      </div>

      <fieldset className={styles.sizes}>
        <legend className="field-label">Stock per size</legend>
        <ul className={styles.sizeList}>
          {values.sizes.map((row) => (
            <li key={row.label} className={styles.sizeRow}>
              <label className={styles.sizeLabel} htmlFor={`${newSizeId}-${row.label}`}>
                Size {row.label}
              </label>
              <input
                id={`${newSizeId}-${row.label}`}
                className="input"
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                value={row.quantity}
                onChange={(event) => setSizeQuantity(row.label, event.target.value)}
              />
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => removeSize(row.label)}
                aria-label={`Remove size ${row.label}`}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
        <TextField
          label="New size label (press Enter to add)"
          value={newSize}
          onChange={(event) => {
            setNewSize(event.target.value);
            setSizeError(null);
          }}
          onKeyDown={addSize}
          error={sizeError}
        />
      </fieldset>

      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <FormFailure failure={failure} />
      <div className={styles.formActions}>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {isEdit ? (busy ? 'Updating...' : 'Update Product') : busy ? 'Adding...' : 'Add Product'}
        </button>
        {isEdit ? (
          <button type="button" className="btn btn-outline" onClick={onDone}>
            Cancel Edit
          </button>
        ) : null}
      </div>
    </form>
  );
}
