// The only module that reads import.meta.env: every key is described, validated, defaulted and frozen here.
// Plain checks rather than a schema library: this runs in the first load, where every kilobyte counts.

/** A string with surrounding blanks removed, undefined when absent or blank; `problems` gets non-strings. */
function optionalText(source: Record<string, unknown>, key: string, problems: string[]): string | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    problems.push(`${key}: expected a string`);
    return undefined;
  }
  return value.trim() || undefined;
}

function isUrl(value: string): boolean {
  try {
    return Boolean(new URL(value).host);
  } catch {
    return false;
  }
}

export type Env = Readonly<{
  /** Absolute API base URL without a trailing slash, e.g. https://shop.example/api. */
  apiUrl: string;
  /** Origin prefixed to image paths that do not start with http. */
  serverOrigin: string;
}>;

/** Validates the build-time environment against the page origin; throws with every problem listed. */
export function parseEnv(source: Record<string, unknown>, pageOrigin: string): Env {
  const problems: string[] = [];
  /** Base URL of the JSON API; a relative path resolves against the page origin. Default '/api'. */
  const apiPath = optionalText(source, 'VITE_API_URL', problems) ?? '/api';
  /** Origin that serves uploaded images such as /uploads/x.svg. Default: the origin of the API URL. */
  const serverOrigin = optionalText(source, 'VITE_SERVER_ORIGIN', problems);
  if (serverOrigin !== undefined && !isUrl(serverOrigin)) problems.push('VITE_SERVER_ORIGIN: expected an absolute URL');
  // Resolved to an absolute URL once, so requests never depend on where the page happens to be.
  let apiUrl: URL | undefined;
  try {
    apiUrl = new URL(apiPath, pageOrigin);
  } catch {
    problems.push('VITE_API_URL: expected a URL or a path');
  }
  if (problems.length > 0 || !apiUrl) {
    throw new Error(`Invalid web environment:\n${problems.map((problem) => `  ✖ ${problem}`).join('\n')}`);
  }
  return Object.freeze({
    apiUrl: apiUrl.href.replace(/\/+$/, ''),
    serverOrigin: (serverOrigin ?? apiUrl.origin).replace(/\/+$/, ''),
  });
}

export const env: Env = parseEnv(import.meta.env, window.location.origin);
