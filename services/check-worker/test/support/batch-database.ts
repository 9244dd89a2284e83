import { Monitor, type DataSource } from '@uptime/db';
import { openTestDatabase, resetDatabase } from '@uptime/testing';

/** The test database of a file of recordCheckBatch tests, as its tests see it. */
export interface BatchDatabase {
  /** Open from the file's beforeAll to its afterAll. */
  readonly ds: DataSource;
  /** The monitor's row as it is now. */
  reload(id: number): Promise<Monitor>;
}

/** Opens the test database for the file, resets it before each test and closes it after the last. */
export function useBatchDatabase(): BatchDatabase {
  let open: DataSource | undefined;
  beforeAll(async () => {
    open = await openTestDatabase();
  });
  beforeEach(() => resetDatabase(open!));
  afterAll(() => open?.destroy());
  const db: BatchDatabase = {
    get ds(): DataSource {
      if (!open) throw new Error('the test database opens in beforeAll');
      return open;
    },
    reload: (id) => db.ds.getRepository(Monitor).findOneByOrFail({ id }),
  };
  return db;
}
