import { ProviderApiError } from '@pis/sdk';
import createClient from 'openapi-fetch';
import type {
  BackofficePaths,
  Connection,
  DeliveryPage,
  LocationPage,
  Provider,
  ProviderPage,
  DeliveryStatus,
  Order,
  PublishPreview,
  WorkingPlan,
} from './types';

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's data, or the SDK's error for an answer other than the documented success. */
function unwrap<T>({ data, error, response }: Answer<T>): T {
  if (data !== undefined && response.ok) return data;
  throw ProviderApiError.fromResponse(response, error);
}

export type Backoffice = ReturnType<typeof backoffice>;

/**
 * The backoffice operations the console uses, typed by the OpenAPI document. The token
 * travels only in the Authorization header: never in a URL, so it stays out of access logs
 * and browser history.
 */
export function backoffice(token: string, origin = window.location.origin) {
  const client = createClient<BackofficePaths>({
    baseUrl: origin,
    headers: { Authorization: `Bearer ${token}` },
  });
  const at = (locationId: string) => ({ params: { path: { locationId } } });
  const page = (cursor: string | null, limit: number) => ({
    params: { query: { limit, ...(cursor ? { cursor } : {}) } },
  });
  const connection = (locationId: string, providerId: string) => ({
    params: { path: { locationId, providerId } },
  });
  return {
    /** One page of the locations, newest first: what the location picker offers. */
    async locations(cursor: string | null, limit = 100): Promise<LocationPage> {
      return unwrap(await client.GET('/api/backoffice/v1/locations', page(cursor, limit)));
    },
    /** One page of the providers, newest first: what the grant picker offers. */
    async providers(cursor: string | null, limit = 100): Promise<ProviderPage> {
      return unwrap(await client.GET('/api/backoffice/v1/providers', page(cursor, limit)));
    },
    async createProvider(body: { name: string; brand: string }): Promise<Provider> {
      return unwrap(await client.POST('/api/backoffice/v1/providers', { body }));
    },
    async connections(locationId: string): Promise<Connection[]> {
      const answer = await client.GET(
        '/api/backoffice/v1/locations/{locationId}/connections',
        at(locationId),
      );
      return unwrap(answer).connections;
    },
    async grant(locationId: string, providerId: string): Promise<Connection> {
      return unwrap(
        await client.PUT(
          '/api/backoffice/v1/locations/{locationId}/connections/{providerId}',
          connection(locationId, providerId),
        ),
      );
    },
    async revoke(locationId: string, providerId: string): Promise<void> {
      const { error, response } = await client.DELETE(
        '/api/backoffice/v1/locations/{locationId}/connections/{providerId}',
        connection(locationId, providerId),
      );
      if (!response.ok) throw ProviderApiError.fromResponse(response, error);
    },
    async workingPlan(locationId: string): Promise<WorkingPlan> {
      return unwrap(
        await client.GET('/api/backoffice/v1/locations/{locationId}/floorplan/working', at(locationId)),
      );
    },
    async publishPreview(locationId: string): Promise<PublishPreview> {
      return unwrap(
        await client.GET(
          '/api/backoffice/v1/locations/{locationId}/floorplan/publish-preview',
          at(locationId),
        ),
      );
    },
    async publish(locationId: string): Promise<{ version: number; publishedAt: string }> {
      return unwrap(
        await client.POST('/api/backoffice/v1/locations/{locationId}/floorplan/publish', at(locationId)),
      );
    },
    async openOrders(locationId: string): Promise<Order[]> {
      const answer = await client.GET('/api/backoffice/v1/locations/{locationId}/orders', {
        params: { path: { locationId }, query: { status: 'open' } },
      });
      return unwrap(answer).orders;
    },
    async deliveries(
      locationId: string,
      query: { status: DeliveryStatus | null; cursor: string | null; limit: number },
    ): Promise<DeliveryPage> {
      const answer = await client.GET('/api/backoffice/v1/locations/{locationId}/webhook-deliveries', {
        params: {
          path: { locationId },
          query: {
            limit: query.limit,
            ...(query.status ? { status: query.status } : {}),
            ...(query.cursor ? { cursor: query.cursor } : {}),
          },
        },
      });
      return unwrap(answer);
    },
    async redeliver(locationId: string, deliveryId: string): Promise<{ deliveryId: string }> {
      return unwrap(
        await client.POST(
          '/api/backoffice/v1/locations/{locationId}/webhook-deliveries/{deliveryId}/redeliver',
          {
            params: { path: { locationId, deliveryId } },
          },
        ),
      );
    },
  };
}
