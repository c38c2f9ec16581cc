import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { ProductImage } from '@/components/ui/product-image';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { formatRupees } from '@/lib/money';
import { availableStock, isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';
import { useGetProductQuery } from '../api/products-api';
import { colourChoices, sizeChoices } from '../size-choices';
import styles from './product-detail.module.css';

type ProductDetailProps = {
  productId: string;
  /** Wired to the cart by the route; size and colour are what the shopper picked. */
  onAddToCart: (product: Product, size: string | null, color: string | null) => void;
};

function ProductDetailView({
  product,
  onAddToCart,
}: {
  product: Product;
  onAddToCart: ProductDetailProps['onAddToCart'];
}) {
  const sizes = sizeChoices(product);
  const colours = colourChoices(product);
  const [size, setSize] = useState<string | null>(null);
  const [colour, setColour] = useState<string | null>(colours[0] ?? null);
  const colourId = useId();

  const outOfStock = isOutOfStock(product);
  // A size must be chosen (sizes are always offered) and that choice must have stock.
  const canAdd = !product.isDelisted && size !== null && availableStock(product, size) > 0;

  return (
    <article className={styles.layout}>
      <PageTitle title={product.name} />
      <div className={styles.media}>
        <ProductImage
          image={product.image}
          alt={product.name}
          className={styles.image}
          sizes="(max-width: 767px) 100vw, 40rem"
          loading="eager"
        />
      </div>
      <div className={styles.info}>
        {product.category.trim() ? <span className="badge">{product.category.trim()}</span> : null}
        <h1 className={styles.name}>{product.name}</h1>
        <p className={styles.price}>{formatRupees(product.price)}</p>
        {product.isDelisted ? (
          <p className="badge badge-danger">This product is no longer available</p>
        ) : outOfStock ? (
          <p className="badge badge-danger">Out of Stock</p>
        ) : null}

        <dl className={styles.facts}>
          <div>
            <dt>Brand</dt>
            <dd>{product.brand || '—'}</dd>
          </div>
          <div>
            <dt>Material</dt>
            <dd>{product.material || '—'}</dd>
          </div>
        </dl>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Size</legend>
          <div className={styles.sizes}>
            {sizes.map((choice) => (
              <button
                key={choice.label}
                type="button"
                className={styles.size}
                aria-pressed={size === choice.label}
                disabled={!choice.inStock}
                onClick={() => setSize(choice.label)}
              >
                {choice.label}
              </button>
            ))}
          </div>
        </fieldset>

        {colours.length > 0 ? (
          <div className="field">
            <label className="field-label" htmlFor={colourId}>
              Colour
            </label>
            <select
              id={colourId}
              className={`input ${styles.select}`}
              value={colour ?? ''}
              onChange={(event) => setColour(event.target.value)}
            >
              {colours.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </div>
        ) : null}

        <button
          type="button"
          className={`btn btn-primary ${styles.add}`}
          disabled={!canAdd}
          onClick={() => onAddToCart(product, size, colour)}
        >
          Add to Cart
        </button>
        {!canAdd && size === null && !outOfStock && !product.isDelisted ? (
          <p className={styles.hint}>Choose a size to add this to your cart.</p>
        ) : null}

        {product.description ? (
          <section className={styles.description}>
            <h2>Description</h2>
            <p>{product.description}</p>
          </section>
        ) : null}
      </div>
    </article>
  );
}

/** The product page: image, name, price, brand, material, sizes, colour, Add to Cart and description. */
export function ProductDetail({ productId, onAddToCart }: ProductDetailProps) {
  const { data: product, isLoading, isError } = useGetProductQuery(productId);

  return (
    <section className="container page">
      <nav className={styles.crumbs} aria-label="Breadcrumb">
        <Link to={paths.products.getHref()}>Shop</Link>
        {product ? <span aria-current="page"> / {product.name}</span> : null}
      </nav>
      {isLoading ? (
        <Spinner label="Loading product..." />
      ) : isError || !product ? (
        <div className="empty-state" role="alert">
          <PageTitle title="Product" />
          <p>Failed to load product</p>
          <Link to={paths.products.getHref()} className="btn btn-outline">
            Back to the shop
          </Link>
        </div>
      ) : (
        // Keyed so the size and colour choices start afresh on another product.
        <ProductDetailView key={String(product.id)} product={product} onAddToCart={onAddToCart} />
      )}
    </section>
  );
}
