import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { PageTitle } from '@/components/seo/page-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProductImage } from '@/components/ui/product-image';
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
        <ProductImage image={product.image} alt={product.name} className={styles.thumb} />
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
  const [deleteProduct, deleteState] = useDeleteProductMutation();
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const list = products.data ?? [];
  const editing = editId === null ? null : (list.find((product) => String(product.id) === editId) ?? null);
  const leaveEdit = () => navigate(paths.admin.products.getHref());

  const confirmDelete = async () => {
    if (!toDelete) return;
    const deleted = toDelete;
    try {
      await deleteProduct(deleted.id).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Product deleted' }));
      if (editId === String(deleted.id)) leaveEdit();
    } catch (error) {
      dispatch(failureShown('Failed to delete', error));
    }
    setToDelete(null);
  };

  return (
    <section className="container page">
      <PageTitle title="Products" />
      <h1 className="page-title">Manage Products</h1>
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
      {products.isLoading ? (
        <Spinner />
      ) : products.isError ? (
        <p className="field-error" role="alert">
          Failed to load products
        </p>
      ) : list.length === 0 ? (
        <p className="empty-state">No products found</p>
      ) : (
        <ul className={styles.list}>
          {list.map((product) => (
            <ProductRow key={String(product.id)} product={product} onDelete={setToDelete} />
          ))}
        </ul>
      )}
      {toDelete ? (
        <ConfirmDialog
          message={`Delete ${toDelete.name}? This cannot be undone.`}
          confirmLabel="Delete"
          busy={deleteState.isLoading}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </section>
  );
}
