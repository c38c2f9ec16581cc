/** What a not-yet-built admin screen shows: the route table puts it on the route's handle, the pending screen reads it through useMatches. */
export type PendingScreenHandle = { title: string; note?: string };

export function isPendingScreenHandle(handle: unknown): handle is PendingScreenHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';
}
