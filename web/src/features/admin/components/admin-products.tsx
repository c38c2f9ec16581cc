import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { PageHeader } from '@/components/layout/page-header';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { LoadedList } from '@/components/ui/loaded-list';
import { ProductImage } from '@/components/ui/product-image';
import { THUMBNAIL_SIZES } from '@/lib/image-url';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { formatRupees } from '@/lib/money';
import { isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';
import { useGetAdminProductsQuery } from '../api/admin-api';
import { useDeleteProductMutation, useSetProductDelistedMutation } from '../api/products-admin-api';
import { ProductForm } from './product-form';
import styles from './admin-products.module.css';

function stockText(product: Product): string {
  const sizes = Object.entries(product.sizeQuantities).filter(([, count]) => count > 0);
  if (sizes.length > 0) return sizes.map(([label, count]) => `${label}: ${count}`).join(', ');
  return `${product.quantity} in stock`;
}

function ProductRow({ product, onDelete }: { product: Product; onDelete: (product: Product) => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [setDelisted, delistState] = useSetProductDelistedMutation();

  const toggle = async () => {
    try {
      await setDelisted({ id: product.id, isDelisted: !product.isDelisted }).unwrap();
    } catch (error) {
      dispatch(failureShown('Failed to update status', error));
    }
  };

  return (
    <li>
      <article className={styles.product} aria-label={product.name}>
        <ProductImage image={product.image} alt={product.name} className={styles.thumb} sizes={THUMBNAIL_SIZES} />
        <div className={styles.productInfo}>
          <h3 className={styles.productName}>{product.name}</h3>
          <p className={styles.meta}>
            {formatRupees(product.price)}
            {product.category ? ` · ${product.category}` : ''}
          </p>
          <p className={styles.meta}>{stockText(product)}</p>
          <p className={styles.flags}>
            {product.isDelisted ? <span className="badge badge-danger">Delisted</span> : null}
            {isOutOfStock(product) ? <span className="badge">Out of Stock</span> : null}
          </p>
        </div>
        <div className={styles.productActions}>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              navigate(paths.admin.products.getHref(product.id));
              window.scrollTo({ top: 0 });
            }}
          >
            Edit
          </button>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => onDelete(product)}>
            Delete
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => void toggle()}
            disabled={delistState.isLoading}
          >
            {product.isDelisted ? 'Activate' : 'Delist'}
          </button>
        </div>
      </article>
    </li>
  );
}

/** Product management: the add/edit form (edit mode by ?edit={id}) and every product, delisted ones too. */
export function AdminProducts() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const editId = searchParams.get('edit');
  const products = useGetAdminProductsQuery();
  const [deleteProduct] = useDeleteProductMutation();
  const list = products.data ?? [];
  const editing = editId === null ? null : (list.find((product) => String(product.id) === editId) ?? null);
  const leaveEdit = () => navigate(paths.admin.products.getHref());

  const deletion = useConfirmation(
    async (deleted: Product) => {
      try {
        await deleteProduct(deleted.id).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Product deleted' }));
        if (editId === String(deleted.id)) leaveEdit();
      } catch (error) {
        dispatch(failureShown('Failed to delete', error));
      }
    },
    (product) => ({ message: `Delete ${product.name}? This cannot be undone.`, confirmLabel: 'Delete' }),
  );

  return (
    <section className="container page">
      <PageHeader title="Products" heading="Manage Products" />
      {editId !== null && products.isLoading ? (
        <Spinner />
      ) : editId !== null && !editing ? (
        <div className={styles.form}>
          <p role="alert">Product {editId} was not found.</p>
          <button type="button" className="btn btn-outline" onClick={leaveEdit}>
            Cancel Edit
          </button>
        </div>
      ) : (
        <ProductForm key={editing ? String(editing.id) : 'new'} product={editing} onDone={leaveEdit} />
      )}

      <h2 className={styles.listTitle}>All products</h2>
      <LoadedList
        query={products}
        error="Failed to load products"
        errorClassName="field-error"
        empty="No products found"
      >
        {(list) => (
          <ul className={styles.list}>
            {list.map((product) => (
              <ProductRow key={String(product.id)} product={product} onDelete={deletion.ask} />
            ))}
          </ul>
        )}
      </LoadedList>
      {deletion.dialog}
    </section>
  );
}
