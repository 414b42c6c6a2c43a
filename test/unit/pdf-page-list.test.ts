import { describe, expect, it } from "vitest";
import { checkPages, parsePageList, resolvePages, resolvePageSet } from "../../src/engines/kinds/pdf-pages";
import { TaskError } from "../../src/engines/errors";

describe("page list notation", () => {
  it("parses pages, ranges, open ranges and spaces", () => {
    expect(parsePageList("1,3,5-7")).toEqual({
      ranges: [
        { from: 1, to: 1 },
        { from: 3, to: 3 },
        { from: 5, to: 7 },
      ],
    });
    expect(parsePageList(" 2 , 4 - 6 ,9-")).toEqual({
      ranges: [
        { from: 2, to: 2 },
        { from: 4, to: 6 },
        { from: 9, to: null },
      ],
    });
  });

  it.each(["", "a", "1,,2", "0", "3-1", "-3", "1-2-3", "1;2", "1.5"])(
    "refuses %j at creation with a message naming the field",
    (spec) => {
      const msgs = checkPages(spec);
      expect(msgs).toHaveLength(1);
      expect(msgs[0]).toMatch(/^pages: .*"1,3,5-7"/);
    },
  );

  it("accepts absent and valid lists", () => {
    expect(checkPages(undefined)).toEqual([]);
    expect(checkPages("1-2,5-")).toEqual([]);
  });

  it("resolves against the page count, in the given order", () => {
    expect(resolvePages(undefined, 3, "a.pdf")).toEqual([1, 2, 3]);
    expect(resolvePages("3,1-2,5-", 6, "a.pdf")).toEqual([3, 1, 2, 5, 6]);
    expect(resolvePageSet("3,1-3", 6, "a.pdf")).toEqual([1, 2, 3]);
  });

  it("names the missing page at run time with INVALID_PAGES", () => {
    for (const spec of ["9", "2-9", "9-"]) {
      try {
        resolvePages(spec, 3, "a.pdf");
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(TaskError);
        expect((err as TaskError).code).toBe("INVALID_PAGES");
        expect((err as TaskError).message).toBe("pages: page 9 does not exist; a.pdf has 3 pages.");
      }
    }
  });
});
