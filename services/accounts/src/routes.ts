import { route, type RouteSpec } from '@shop/shared/http/route-table';
import { LoginBody, ProfileBody, RegisterBody } from './api.ts';
import { IdParam as TestimonialIdParam, ModerateBody, SubmitBody } from './testimonials-api.ts';
import { USER_DIRECTORY_ROUTES } from './user/user-directory-api.ts';

const service = 'accounts';

/** Every route the accounts service mounts, from the schemas its handlers parse with. */
export const ACCOUNTS_ROUTES: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/auth/register',
    auth: 'public',
    service,
    summary: 'Create an account; answers the user and a token',
    body: RegisterBody,
    responses: {
      201: 'Account created: {message, user, token}',
      400: 'Bad input (names the field)',
      409: 'The e-mail is already registered',
      429: 'Too many sign-ups from this address',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'post',
    path: '/api/auth/login',
    auth: 'public',
    service,
    summary: 'Log in with e-mail and password; answers the user and a token',
    body: LoginBody,
    responses: {
      200: '{message, user, token}',
      400: 'Bad input',
      401: 'Invalid email or password',
      429: 'Too many login attempts',
    },
  }),
  route({
    method: 'get',
    path: '/api/auth/me',
    auth: 'user',
    service,
    summary: 'The signed-in user',
    responses: {
      200: 'The user {id, name, email, phone, dob, gender, isAdmin}',
      401: 'Not signed in',
      404: 'User not found',
    },
  }),
  route({
    method: 'put',
    path: '/api/auth/me',
    auth: 'user',
    service,
    summary: 'Change the profile (name, email, phone, dob, gender); answers the user and a fresh token',
    body: ProfileBody,
    responses: {
      200: 'The user, also under `user`, and a fresh `token`',
      400: 'Bad input (names the field)',
      401: 'Not signed in',
      409: 'The e-mail belongs to another account',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'get',
    path: '/api/auth/admin/users',
    auth: 'admin',
    service,
    summary: 'Every user (admin)',
    responses: { 200: 'List of users', 401: 'Not signed in', 403: 'Not an admin' },
  }),
  route({
    method: 'get',
    path: '/api/testimonials',
    auth: 'public',
    service,
    summary: 'Approved reviews, newest first',
    responses: { 200: '[{id, rating, text, status, createdAt, User: {name}}]' },
  }),
  route({
    method: 'post',
    path: '/api/testimonials',
    auth: 'user',
    service,
    summary: 'Submit a review (pending until an admin approves it)',
    body: SubmitBody,
    responses: {
      201: '{message, testimonial} (the testimonial also at the top)',
      400: 'Bad input: review text required, rating a whole number 1-5',
      401: 'Please login to submit a review',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'get',
    path: '/api/testimonials/admin/all',
    auth: 'admin',
    service,
    summary: 'Every review in every status (admin)',
    responses: {
      200: 'List of testimonials with userId and User {name, email}',
      401: 'Not signed in',
      403: 'Not an admin',
    },
  }),
  route({
    method: 'put',
    path: '/api/testimonials/admin/:id',
    auth: 'admin',
    service,
    summary: 'Moderate a review: pending, approved or rejected (admin)',
    params: TestimonialIdParam,
    body: ModerateBody,
    responses: {
      200: '{message, ...testimonial}',
      400: 'Bad id or status',
      401: 'Not signed in',
      403: 'Not an admin',
      404: 'Testimonial not found',
      503: 'Saved but not yet readable',
    },
  }),
  route({
    method: 'delete',
    path: '/api/testimonials/admin/:id',
    auth: 'admin',
    service,
    summary: 'Delete a review (admin)',
    params: TestimonialIdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad id',
      401: 'Not signed in',
      403: 'Not an admin',
      404: 'Testimonial not found',
      503: 'Deleted but the list has not caught up',
    },
  }),
  ...USER_DIRECTORY_ROUTES,
];
