/** Events of the `product-<id>` stream. Money is in paise (integers). */
export interface ProductDetails {
  name: string;
  pricePaise: number;
  description: string;
  category: string;
  size: string;
  color: string;
  brand: string;
  material: string;
  /** Path under the app (/uploads/...) or an absolute http(s) URL. */
  image: string;
  /** Size labels offered, in display order (their stock lives in stock streams). */
  sizeLabels: string[];
}

export type ProductCreated = {
  type: 'ProductCreated';
  data: ProductDetails & { productId: string; createdAt: string };
};
export type ProductDetailsChanged = {
  type: 'ProductDetailsChanged';
  data: Partial<ProductDetails> & { productId: string; changedAt: string };
};
export type ProductDelisted = { type: 'ProductDelisted'; data: { productId: string; at: string } };
export type ProductRelisted = { type: 'ProductRelisted'; data: { productId: string; at: string } };
export type ProductDeleted = { type: 'ProductDeleted'; data: { productId: string; at: string } };
export type ProductEvent = ProductCreated | ProductDetailsChanged | ProductDelisted | ProductRelisted | ProductDeleted;

export const productStreamId = (productId: string) => `product-${productId}`;
