// The linter (issue 46 item 5): two rules prettier and tsc do not give. `npm run lint` and .ci/run run it over every
// TypeScript folder of the project; prettier owns the layout, tsc the types, so nothing else is turned on here.
//   @typescript-eslint/no-explicit-any          an `any` turns the type checker off where a shape is known
//   @typescript-eslint/consistent-type-imports  a type-only import is written `import type`, so the Worker bundle and the
//                                               import graph carry only value imports
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "dist/**",
      ".cache/**",
      ".wrangler/**",
      "test/e2e/cloudconvert-node/**",
      "test/fixtures/**",
      "**/*.d.ts",
      "wasm/**/vendor/**",
    ],
  },
  {
    files: ["**/*.ts", "**/*.mts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    // a directive for a rule of eslint's own set (container/engines/sketch/svg.ts: no-control-regex) is not an error here
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
    },
  },
);
