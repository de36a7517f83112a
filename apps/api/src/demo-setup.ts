import { createLocation, issueApiKey, type Deps } from '@pis/domain';

export interface DemoCredentials {
  locationId: string;
  key: string;
}

/**
 * First start of an empty embedded database (decisions section 9): a demo location and its
 * provider key, so a newcomer can walk the onboarding flow at once. The key is shown once.
 */
export async function seedDemoLocation(deps: Deps): Promise<DemoCredentials | null> {
  if ((await deps.queries.access.countLocations()) > 0) return null;
  const location = await createLocation(deps, { name: 'Demo Bistro', brand: 'demo', currency: 'EUR' });
  if (!location.ok) throw new Error(`could not create the demo location: ${location.message}`);
  const key = await issueApiKey(deps, { locationId: location.value.id });
  if (!key.ok) throw new Error(`could not issue the demo key: ${key.message}`);
  return { locationId: location.value.id, key: key.value.key };
}
