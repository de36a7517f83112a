import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Who may read `/metrics`: anyone when no token is configured (the port is then the
 * boundary), else only `Authorization: Bearer <token>`, compared in constant time.
 */
export function metricsAccess(token: string | null): (authorization: string | undefined) => boolean {
  if (token === null) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}
