import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { api, errorMessage, messageFromErrorBody } from './api-client';

const healthApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<unknown, void>({ query: () => '/health' }),
  }),
});

function makeApiStore() {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
}

async function callHealth() {
  const store = makeApiStore();
  const result = await store.dispatch(healthApi.endpoints.getHealth.initiate());
  return result;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('messageFromErrorBody', () => {
  it("uses the server's message field", () => {
    expect(messageFromErrorBody(409, '{"message":"Email already registered"}')).toBe('Email already registered');
  });

  it('falls back to the body text when there is no message field', () => {
    expect(messageFromErrorBody(500, 'Database unavailable')).toBe('Database unavailable');
    expect(messageFromErrorBody(400, '{"error":"bad"}')).toBe('{"error":"bad"}');
  });

  it("says 'Request failed with {status}' when the body is empty or an HTML page", () => {
    expect(messageFromErrorBody(503, '')).toBe('Request failed with 503');
    expect(messageFromErrorBody(502, '  \n')).toBe('Request failed with 502');
    expect(messageFromErrorBody(502, '<html><body>Bad Gateway</body></html>')).toBe('Request failed with 502');
  });
});

describe('api base query', () => {
  it('turns a non-OK JSON answer into an error carrying the server message', async () => {
    fakeApi({ 'GET /api/health': () => jsonResponse({ message: 'Broker down' }, 503) });
    const result = await callHealth();
    expect(result.error).toEqual({ status: 503, message: 'Broker down' });
    expect(errorMessage(result.error, 'fallback')).toBe('Broker down');
  });

  it('uses the plain-text body, then the status, when there is no message', async () => {
    fakeApi({ 'GET /api/health': () => new Response('Service paused', { status: 500 }) });
    expect((await callHealth()).error).toEqual({ status: 500, message: 'Service paused' });

    fakeApi({ 'GET /api/health': () => new Response(null, { status: 404 }) });
    expect((await callHealth()).error).toEqual({ status: 404, message: 'Request failed with 404' });
  });

  it('reports an unreachable server without a status', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect((await callHealth()).error).toEqual({ status: 'FETCH_ERROR', message: 'Could not reach the server' });
  });

  it('parses a JSON success answer', async () => {
    fakeApi({ 'GET /api/health': () => jsonResponse({ status: 'ok' }) });
    expect((await callHealth()).data).toEqual({ status: 'ok' });
  });

  it('sends the stored token as a Bearer header, and no header without one', async () => {
    const fetchMock = fakeApi({ 'GET /api/health': () => jsonResponse({ status: 'ok' }) });

    await callHealth();
    window.localStorage.setItem('token', 'secret-token');
    await callHealth();

    const [anonymous, authenticated] = requestsOf(fetchMock);
    expect(anonymous?.headers.get('Authorization')).toBeNull();
    expect(authenticated?.headers.get('Authorization')).toBe('Bearer secret-token');
  });
});

describe('errorMessage', () => {
  it('falls back when the error has no usable message', () => {
    expect(errorMessage(undefined, 'Login failed')).toBe('Login failed');
    expect(errorMessage({ status: 500, message: '' }, 'Login failed')).toBe('Login failed');
  });
});
