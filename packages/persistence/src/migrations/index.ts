import { InitialSchema1764000000000 } from './1764000000000-initial-schema';

/** Every migration, oldest first. Add new ones here and as files beside this one. */
export const MIGRATIONS = [InitialSchema1764000000000];
