/**
 * Typed access to a Durable Object's SQLite storage, shared by the JobDO and the AccountDO.
 */
/**
 * Typed helpers over SqlStorage. `generation` counts writes made through `run`, so readers can
 * cache; `write` is for writers that keep those caches right themselves (or touch tables nobody caches).
 */
export class Db {
  generation = 0;
  constructor(private sql: SqlStorage) {}
  all<T>(query: string, ...args: unknown[]): T[] {
    return this.sql.exec(query, ...args).toArray() as unknown as T[];
  }
  one<T>(query: string, ...args: unknown[]): T | null {
    return (this.all<T>(query, ...args)[0] as T | undefined) ?? null;
  }
  /** A write that drops every reader's cache. */
  run(query: string, ...args: unknown[]): void {
    this.generation++;
    this.sql.exec(query, ...args);
  }
  /** A write that leaves readers' caches alone: the caller updates them (or no cache holds these rows). Answers the rows of a RETURNING clause. */
  write<T>(query: string, ...args: unknown[]): T[] {
    return this.sql.exec(query, ...args).toArray() as unknown as T[];
  }
}
