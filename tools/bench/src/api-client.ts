/** The backoffice token the benchmark starts the API with (the benchmark's own database only). */
export const BACKOFFICE_TOKEN = 'bench-backoffice-token-0123456789';

export const PROVIDER = '/api/provider/v1';
export const BACKOFFICE = '/api/backoffice/v1';

/** JSON over HTTP with a bearer credential; throws on a status outside `expect`. */
export async function call<T>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  expect: readonly number[] = [200, 201, 204],
): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
