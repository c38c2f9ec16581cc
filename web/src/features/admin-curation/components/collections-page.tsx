import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { FormFailure, saveFailure, type SaveFailure } from '@/components/form/form-failure';
import { SelectField, TextAreaField, TextField } from '@/components/form/text-field';
import { PageHeader } from '@/components/layout/page-header';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { LoadedList } from '@/components/ui/loaded-list';
import { ProductImage } from '@/components/ui/product-image';
import { THUMBNAIL_SIZES } from '@/lib/image-url';
import { errorMessage } from '@/lib/api-client';
import {
  useAddCollectionProductMutation,
  useCreateCollectionMutation,
  useDeleteCollectionMutation,
  useGetAdminCollectionsQuery,
  useGetCurationProductsQuery,
  useRemoveCollectionProductMutation,
  useUpdateCollectionImageMutation,
  type Collection,
} from '../api/curation-api';
import styles from './curation.module.css';

const ONLY_IMAGES = 'Only image files are allowed';
const isImage = (file: File) => file.type.startsWith('image/');

function CreateCollectionForm() {
  const dispatch = useAppDispatch();
  const [createCollection, { isLoading }] = useCreateCollectionMutation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  function onImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    if (file && !isImage(file)) {
      setImage(null);
      setImageError(ONLY_IMAGES);
      event.target.value = '';
      return;
    }
    setImageError(null);
    setImage(file);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    // The server's one rule for a new collection, checked before sending.
    if (!name.trim()) {
      setNameError('Collection name is required');
      return;
    }
    setNameError(null);
    const body = new FormData();
    body.append('name', name);
    body.append('description', description);
    if (image) body.append('image', image);
    try {
      await createCollection(body).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Collection created' }));
      setName('');
      setDescription('');
      setImage(null);
      if (fileRef.current) fileRef.current.value = '';
    } catch (error) {
      const refused = saveFailure('Failed to create collection', error);
      setFailure(refused);
      dispatch(notificationShown({ type: 'error', message: refused.reason ?? refused.title }));
    }
  }

  return (
    <form className={styles.card} onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2>Create Collection</h2>
      <div className={styles.grid}>
        <TextField
          label="Collection Name"
          required
          value={name}
          error={nameError}
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          ref={fileRef}
          label="Collection Image"
          type="file"
          accept="image/*"
          onChange={onImage}
          error={imageError}
        />
        <TextAreaField
          label="Description"
          className={styles.wide}
          rows={2}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <FormFailure failure={failure} />
      <div className={styles.actions}>
        <button type="submit" className="btn btn-primary" disabled={isLoading}>
          {isLoading ? 'Creating...' : 'Create Collection'}
        </button>
      </div>
    </form>
  );
}

type CollectionCardProps = {
  collection: Collection;
  products: { id: string; name: string }[];
  onDelete: (collection: Collection) => void;
};

function CollectionCard({ collection, products, onDelete }: CollectionCardProps) {
  const dispatch = useAppDispatch();
  const [addProduct, adding] = useAddCollectionProductMutation();
  const [removeProduct, removing] = useRemoveCollectionProductMutation();
  const [updateImage, updatingImage] = useUpdateCollectionImageMutation();
  const inCollection = new Set(collection.Products.map((product) => product.id));
  const addable = products.filter((product) => !inCollection.has(product.id));
  const busy = adding.isLoading || removing.isLoading || updatingImage.isLoading;
  const headingId = `collection-${collection.id}`;

  async function onAdd(event: ChangeEvent<HTMLSelectElement>) {
    const productId = event.target.value;
    if (!productId) return;
    try {
      await addProduct({ id: collection.id, productId }).unwrap();
    } catch (error) {
      dispatch(notificationShown({ type: 'error', message: errorMessage(error, 'Failed to add product') }));
    }
  }

  async function onRemove(productId: string) {
    try {
      await removeProduct({ id: collection.id, productId }).unwrap();
    } catch (error) {
      dispatch(notificationShown({ type: 'error', message: errorMessage(error, 'Failed to remove product') }));
    }
  }

  async function onImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isImage(file)) {
      dispatch(notificationShown({ type: 'error', message: ONLY_IMAGES }));
      return;
    }
    const body = new FormData();
    body.append('image', file);
    try {
      await updateImage({ id: collection.id, body }).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Image updated' }));
    } catch (error) {
      dispatch(notificationShown({ type: 'error', message: errorMessage(error, 'Failed to update image') }));
    }
  }

  return (
    <li className={`${styles.card} ${styles.collection}`} aria-labelledby={headingId}>
      <ProductImage image={collection.image} alt={collection.name} className={styles.thumb} sizes={THUMBNAIL_SIZES} />
      <div className={styles.body}>
        <h3 id={headingId}>{collection.name}</h3>
        {collection.description ? <p className={styles.meta}>{collection.description}</p> : null}
        {collection.Products.length ? (
          <ul className={styles.chips} aria-label={`Products in ${collection.name}`}>
            {collection.Products.map((product) => (
              <li key={product.id} className={styles.chip}>
                {product.name}
                {product.isDelisted ? ' (delisted)' : ''}
                <button
                  type="button"
                  className={styles.chipRemove}
                  aria-label={`Remove ${product.name}`}
                  disabled={busy}
                  onClick={() => void onRemove(product.id)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className={styles.meta}>No products in this collection yet.</p>
        )}
        <div className={styles.grid}>
          <SelectField label="Add product" value="" disabled={busy} onChange={(event) => void onAdd(event)}>
            <option value="">Add product...</option>
            {addable.map((product) => (
              <option key={product.id} value={product.id}>
                {product.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Update image"
            type="file"
            accept="image/*"
            disabled={busy}
            onChange={(event) => void onImage(event)}
          />
        </div>
        <div className={styles.actions}>
          <button
            type="button"
            className={`btn btn-outline btn-sm ${styles.danger}`}
            onClick={() => onDelete(collection)}
          >
            Delete
          </button>
        </div>
      </div>
    </li>
  );
}

/** /admin/collections: the create form and every collection with its products, image and delete. */
export function CollectionsPage() {
  const dispatch = useAppDispatch();
  const collections = useGetAdminCollectionsQuery();
  const products = useGetCurationProductsQuery();
  const [deleteCollection] = useDeleteCollectionMutation();
  const productChoices = (products.data ?? []).map((product) => ({ id: String(product.id), name: product.name }));
  const deletion = useConfirmation(
    async (collection: Collection) => {
      try {
        await deleteCollection(collection.id).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Collection deleted' }));
      } catch (error) {
        dispatch(notificationShown({ type: 'error', message: errorMessage(error, 'Failed to delete collection') }));
      }
    },
    () => ({ message: 'Delete this collection?' }),
  );

  return (
    <section className="container page">
      <PageHeader title="Collections" />
      <CreateCollectionForm />
      <LoadedList
        query={collections}
        loading={<p className="empty-state">Loading...</p>}
        error="Failed to load collections"
        empty="No collections"
      >
        {(list) => (
          <ul className={styles.list} aria-label="Collections">
            {list.map((collection) => (
              <CollectionCard
                key={collection.id}
                collection={collection}
                products={productChoices}
                onDelete={deletion.ask}
              />
            ))}
          </ul>
        )}
      </LoadedList>
      {deletion.dialog}
    </section>
  );
}
