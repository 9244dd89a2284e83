import { InitialSchema1732270000000 } from './1732270000000-initial-schema';

/** Every migration, oldest first. New ones are appended here. */
export const MIGRATIONS = [InitialSchema1732270000000];
