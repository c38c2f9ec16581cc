/**
 * The accounts service's public client entry (`@shop/accounts/client`): what another service may import
 * from it. The port itself is in `@shop/shared/auth/user-directory`.
 */
export { UserDirectoryHttpClient } from './user/user-directory-http-client.ts';
