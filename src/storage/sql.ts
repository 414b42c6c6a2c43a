/**
 * Typed access to a Durable Object's SQLite storage, shared by the JobDO and the AccountDO.
 */
/** Typed helpers over SqlStorage. `generation` counts writes made through `run`, so readers can cache. */
export class Db {
  generation = 0;
  constructor(private sql: SqlStorage) {}
  all<T>(query: string, ...args: unknown[]): T[] {
    return this.sql.exec(query, ...args).toArray() as unknown as T[];
  }
  one<T>(query: string, ...args: unknown[]): T | null {
    return (this.all<T>(query, ...args)[0] as T | undefined) ?? null;
  }
  run(query: string, ...args: unknown[]): void {
    this.generation++;
    this.sql.exec(query, ...args);
  }
}
