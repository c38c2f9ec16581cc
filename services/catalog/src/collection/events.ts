/** Events of the `collection-<id>` stream: an admin-curated group of products. */
export interface CollectionDetails {
  name: string;
  description: string;
  /** Path under the app (/uploads/...), an absolute http(s) URL, or '' for none. */
  image: string;
}

export type CollectionCreated = {
  type: 'CollectionCreated';
  data: CollectionDetails & { collectionId: string; createdAt: string };
};
export type CollectionDetailsChanged = {
  type: 'CollectionDetailsChanged';
  data: Partial<CollectionDetails> & { collectionId: string; changedAt: string };
};
export type CollectionDeleted = { type: 'CollectionDeleted'; data: { collectionId: string; at: string } };
export type ProductAddedToCollection = {
  type: 'ProductAddedToCollection';
  data: { collectionId: string; productId: string; at: string };
};
export type ProductRemovedFromCollection = {
  type: 'ProductRemovedFromCollection';
  data: { collectionId: string; productId: string; at: string };
};
export type CollectionEvent =
  | CollectionCreated
  | CollectionDetailsChanged
  | CollectionDeleted
  | ProductAddedToCollection
  | ProductRemovedFromCollection;

export const collectionStreamId = (collectionId: string) => `collection-${collectionId}`;
