/**
 * The catalog's backstop for stock holds. Checkout settles every hold it recorded (paid: committed;
 * lapsed: released by its expiry sweep), but a checkout that dies between holding stock and recording its
 * order leaves holds nobody knows of. Each hold therefore carries its own expiry, well after checkout's
 * (twice the reservation time plus 30 s, so checkout always settles first), and this job gives back those
 * still held then. A payment that arrives later still commits if the units are there (else refund due).
 */
export const HOLD_EXPIRY_JOB = 'catalog.hold-expiry';

/** How long a hold lasts if nobody settles it: twice checkout's reservation time plus 30 s. */
export const holdBackstopMs = (reservationTtlSeconds: number) => (2 * reservationTtlSeconds + 30) * 1000;
