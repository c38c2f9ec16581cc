import { z } from 'zod';

// The only module that reads import.meta.env: every key is described, validated, defaulted and frozen here.
const blankAsMissing = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const envSchema = z.object({
  VITE_API_URL: z
    .preprocess(blankAsMissing, z.string().trim().default('/api'))
    .describe("Base URL of the JSON API; a relative path resolves against the page origin. Default '/api'."),
  VITE_SERVER_ORIGIN: z
    .preprocess(blankAsMissing, z.url().optional())
    .describe('Origin that serves uploaded images such as /uploads/x.svg. Default: the origin of the API URL.'),
});

export type Env = Readonly<{
  /** Absolute API base URL without a trailing slash, e.g. https://shop.example/api. */
  apiUrl: string;
  /** Origin prefixed to image paths that do not start with http. */
  serverOrigin: string;
}>;

/** Validates the build-time environment against the page origin; throws with every problem listed. */
export function parseEnv(source: Record<string, unknown>, pageOrigin: string): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid web environment:\n${z.prettifyError(parsed.error)}`);
  }
  // Resolved to an absolute URL once, so requests never depend on where the page happens to be.
  const apiUrl = new URL(parsed.data.VITE_API_URL, pageOrigin);
  return Object.freeze({
    apiUrl: apiUrl.href.replace(/\/+$/, ''),
    serverOrigin: (parsed.data.VITE_SERVER_ORIGIN ?? apiUrl.origin).replace(/\/+$/, ''),
  });
}

export const env: Env = parseEnv(import.meta.env, window.location.origin);
