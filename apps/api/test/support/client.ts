import type { Server } from 'node:http';
import request, { type Test } from 'supertest';
import { checkAgainstDocument } from './openapi-check';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';

/**
 * supertest with a bearer credential (or none), where every response is also checked
 * against the OpenAPI document (see `checkAgainstDocument`): a mismatch fails the request.
 */
export class Client {
  constructor(
    private readonly server: Server,
    readonly token: string | null,
  ) {}

  get = (path: string): Test => this.call('get', path);
  post = (path: string): Test => this.call('post', path);
  put = (path: string): Test => this.call('put', path);
  patch = (path: string): Test => this.call('patch', path);
  delete = (path: string): Test => this.call('delete', path);
  head = (path: string): Test => this.call('head', path);

  /** The same server with another credential. */
  as(token: string | null): Client {
    return new Client(this.server, token);
  }

  private call(method: Method, path: string): Test {
    const test = request(this.server)[method](path);
    if (this.token !== null) test.set('Authorization', `Bearer ${this.token}`);
    return test.expect((res) => checkAgainstDocument(method, path, res));
  }
}
