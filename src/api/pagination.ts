/**
 * Simple paginator of lists (contract §2.6): `links {first, last: null, prev, next}` and
 * `meta {current_page, from, path, per_page, to}`; default per_page 100.
 */
import { ApiError } from "./errors";
import { q } from "./context";

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

export function pageOf(query: Record<string, string | undefined>): Page {
  const page = Number(q(query.page) ?? 1);
  const perPage = Number(q(query.per_page) ?? 100);
  if (!Number.isInteger(page) || page < 1)
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", {
      page: ["page must be a positive integer."],
    });
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 1000)
    throw new ApiError(422, "The given data was invalid.", "INVALID_DATA", {
      per_page: ["per_page must be an integer between 1 and 1000."],
    });
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The list envelope. `hasMore` says whether a next page exists. */
export function listBody<T>(url: string, p: Page, data: T[], hasMore: boolean) {
  const u = new URL(url);
  const path = `${u.origin}${u.pathname}`;
  const at = (n: number) => {
    const x = new URL(u);
    x.searchParams.set("page", String(n));
    return x.toString();
  };
  return {
    data,
    links: {
      first: at(1),
      last: null,
      prev: p.page > 1 ? at(p.page - 1) : null,
      next: hasMore ? at(p.page + 1) : null,
    },
    meta: {
      current_page: p.page,
      from: data.length ? p.offset + 1 : null,
      path,
      per_page: p.perPage,
      to: data.length ? p.offset + data.length : null,
    },
  };
}
