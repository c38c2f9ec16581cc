/** Events of the `user-<id>` stream and the `email-<address>` uniqueness stream. */
export type UserRegistered = {
  type: 'UserRegistered';
  data: {
    userId: string;
    name: string;
    email: string;
    phone: string;
    passwordHash: string;
    isAdmin: boolean;
    registeredAt: string;
  };
};
export type UserProfileUpdated = {
  type: 'UserProfileUpdated';
  data: {
    userId: string;
    name: string;
    email: string;
    phone: string;
    dob: string | null;
    gender: Gender | null;
    updatedAt: string;
  };
};
export type UserPromotedToAdmin = { type: 'UserPromotedToAdmin'; data: { userId: string; promotedAt: string } };
/**
 * The user asked for a password-reset link: the link's secret is kept only as its SHA-256 (`tokenHash`), never
 * itself, and works until `expiresAt`, once. A later request replaces it.
 */
export type PasswordResetRequested = {
  type: 'PasswordResetRequested';
  data: { userId: string; tokenHash: string; requestedAt: string; expiresAt: string };
};
/**
 * The password was set anew through a reset link: the link is used up, and every session issued before ends
 * (tokens carry the session generation, which this moves on).
 */
export type PasswordReset = {
  type: 'PasswordReset';
  data: { userId: string; passwordHash: string; resetAt: string };
};
export type UserEvent =
  UserRegistered | UserProfileUpdated | UserPromotedToAdmin | PasswordResetRequested | PasswordReset;

export type EmailClaimed = { type: 'EmailClaimed'; data: { email: string; userId: string } };
export type EmailReleased = { type: 'EmailReleased'; data: { email: string; userId: string } };
export type EmailEvent = EmailClaimed | EmailReleased;

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export type Gender = (typeof GENDERS)[number];

export const userStreamId = (userId: string) => `user-${userId}`;
export const emailStreamId = (email: string) => `email-${normaliseEmail(email)}`;
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
