import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { PageTitle } from '@/components/seo/page-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProductImage } from '@/components/ui/product-image';
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
      dispatch(notificationShown({ type: 'error', message: errorMessage(error, 'Failed to create collection') }));
    }
  }

  return (
    <form className={styles.card} onSubmit={(event) => void onSubmit(event)}>
      <h2>Create Collection</h2>
      <div className={styles.grid}>
        <TextField label="Collection Name" value={name} onChange={(event) => setName(event.target.value)} />
        <div className="field">
          <label className="field-label" htmlFor="collection-image">
            Collection Image
          </label>
          <input
            ref={fileRef}
            id="collection-image"
            className="input"
            type="file"
            accept="image/*"
            onChange={onImage}
            aria-invalid={imageError ? true : undefined}
          />
          {imageError ? <p className="field-error">{imageError}</p> : null}
        </div>
        <div className={`field ${styles.wide}`}>
          <label className="field-label" htmlFor="collection-description">
            Description
          </label>
          <textarea
            id="collection-description"
            className="input"
            rows={2}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
      </div>
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
      <ProductImage image={collection.image} alt={collection.name} className={styles.thumb} />
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
          <div className="field">
            <label className="field-label" htmlFor={`${headingId}-add`}>
              Add product
            </label>
            <select
              id={`${headingId}-add`}
              className="input"
              value=""
              disabled={busy}
              onChange={(event) => void onAdd(event)}
            >
              <option value="">Add product...</option>
              {addable.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${headingId}-image`}>
              Update image
            </label>
            <input
              id={`${headingId}-image`}
              className="input"
              type="file"
              accept="image/*"
              disabled={busy}
              onChange={(event) => void onImage(event)}
            />
          </div>
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
  const [deleteCollection, deletion] = useDeleteCollectionMutation();
  const [toDelete, setToDelete] = useState<Collection | null>(null);
  const productChoices = (products.data ?? []).map((product) => ({ id: String(product.id), name: product.name }));

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deleteCollection(toDelete.id).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Collection deleted' }));
    } catch (error) {
      dispatch(notificationShown({ type: 'error', message: errorMessage(error, 'Failed to delete collection') }));
    }
    setToDelete(null);
  }

  const list = collections.data ?? [];
  return (
    <section className="container page">
      <PageTitle title="Collections" />
      <h1 className="page-title">Collections</h1>
      <CreateCollectionForm />
      {collections.isLoading ? (
        <p className="empty-state">Loading...</p>
      ) : collections.isError ? (
        <p className="empty-state" role="alert">
          Failed to load collections
        </p>
      ) : list.length === 0 ? (
        <p className="empty-state">No collections</p>
      ) : (
        <ul className={styles.list} aria-label="Collections">
          {list.map((collection) => (
            <CollectionCard
              key={collection.id}
              collection={collection}
              products={productChoices}
              onDelete={setToDelete}
            />
          ))}
        </ul>
      )}
      {toDelete ? (
        <ConfirmDialog
          message="Delete this collection?"
          busy={deletion.isLoading}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </section>
  );
}
