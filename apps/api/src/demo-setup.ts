import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocation, issueApiKey, type Deps } from '@pis/domain';

export interface DemoLocation {
  locationId: string;
  /** The provider key, only at the start that created the location (it is shown once). */
  key: string | null;
}

const DEMO_FILE = 'demo-location';

/**
 * Embedded mode (docs/reference/running.md#first-start): the first start of an empty
 * database makes a demo location and its provider key, so a newcomer can walk the
 * onboarding flow at once; later starts find the location again by the id kept in
 * `DATA_DIR/demo-location`. main calls this only once the port is bound, so a start that
 * fails (the port is taken) never makes a key nobody sees. null: the database holds
 * locations but not a demo one this directory knows of.
 */
export async function ensureDemoLocation(deps: Deps, dataDir: string): Promise<DemoLocation | null> {
  const file = join(dataDir, DEMO_FILE);
  if ((await deps.queries.access.countLocations()) > 0) {
    const id = (await readFile(file, 'utf8').catch(() => '')).trim();
    return id && (await deps.queries.access.findLocation(id)) ? { locationId: id, key: null } : null;
  }
  const location = await createLocation(deps, { name: 'Demo Bistro', brand: 'demo', currency: 'EUR' });
  if (!location.ok) throw new Error(`could not create the demo location: ${location.message}`);
  await writeFile(file, `${location.value.id}\n`);
  const key = await issueApiKey(deps, { locationId: location.value.id });
  if (!key.ok) throw new Error(`could not issue the demo key: ${key.message}`);
  return { locationId: location.value.id, key: key.value.key };
}
