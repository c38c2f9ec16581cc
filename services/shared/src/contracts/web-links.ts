/**
 * Pages of the web app that the services link to from outside it (e-mails), one definition for both: the web app's
 * routes (web/src/config/paths.ts) are these paths, and a mail's link is the shop's public URL (PUBLIC_URL) plus one.
 * Tokens ride in the fragment, which the browser never sends to a server, so they stay out of access logs and
 * Referer headers.
 */
export const WEB_PAGES = {
  orderConfirmation: '/order-confirmation',
  resetPassword: '/reset-password',
} as const;

/** The link (relative to the site) of an order's confirmation page for its signed token. */
export const orderConfirmationHref = (token: string): string =>
  `${WEB_PAGES.orderConfirmation}#${encodeURIComponent(token)}`;

/** The link (relative to the site) of the page that sets a new password with a reset token. */
export const resetPasswordHref = (token: string): string => `${WEB_PAGES.resetPassword}#${encodeURIComponent(token)}`;
