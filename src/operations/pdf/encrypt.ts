/**
 * pdf/encrypt: AES-256 (ISO 32000-2 revision 6) with a user password (`set_password`, needed to
 * open) and/or an owner password (`set_owner_password`, lifts the restrictions), plus permissions.
 *
 * Permission levels follow qpdf's --modify/--print vocabulary (cumulative, the closest public
 * reference): allow_modify none < assemble < form (+ fill forms, sign) < annotate (+ comments)
 * < all (+ other changes); allow_print none | low | full. Defaults allow everything, as qpdf does.
 * Without `set_owner_password` a random owner password is used, so the restrictions hold for
 * whoever only knows the user password (an owner password equal to it would lift them).
 * Both passwords are optional, as on CloudConvert ("optionally with passwords and restrictions";
 * the n8n node's default pdf/encrypt sends only allow_extract and allow_accessibility, issue 31):
 * without either, the PDF opens without a password and its restrictions hold (random owner password).
 * pdf-lib encrypts within its budget; larger PDFs stream to the native qpdf (issue 49), which cannot restrict
 * accessibility at AES-256 (allow_accessibility false is then reported in result.warnings).
 */
import { z } from "zod";
import type { PdfPermissions } from "../../engines/kinds/pdf";
import type { OperationHandler } from "../types";
import { boolParam, perDocumentStreamed, PDF_TO_PDF } from "./common";

const password = z.string().min(1).max(127);
const params = z.object({
  set_password: password.optional(),
  set_owner_password: password.optional(),
  allow_extract: boolParam,
  allow_accessibility: boolParam,
  allow_modify: z
    .enum(["none", "assemble", "form", "annotate", "all"])
    .optional()
    .describe("Cumulative levels as qpdf's --modify (default all)"),
  allow_print: z.enum(["none", "low", "full"]).optional().describe("default full"),
});
type Params = z.infer<typeof params>;

/** Permission flags for the parameters (see the module comment for the levels). */
export function permissionsFor(p: Params): PdfPermissions {
  const modify = p.allow_modify ?? "all";
  const level = ["none", "assemble", "form", "annotate", "all"].indexOf(modify);
  const print = p.allow_print ?? "full";
  return {
    printing: print === "none" ? false : print === "low" ? ("lowResolution" as const) : ("highResolution" as const),
    copying: p.allow_extract ?? true,
    contentAccessibility: p.allow_accessibility ?? true,
    documentAssembly: level >= 1,
    fillingForms: level >= 2,
    annotating: level >= 3,
    modifying: level >= 4,
  };
}

function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const encryptPdf: OperationHandler<Params> = {
  operation: "pdf/encrypt",
  ...PDF_TO_PDF,
  params,
  run: (inputs, p, ctx) =>
    perDocumentStreamed("pdf/encrypt", inputs, p, ctx, (engine, input) =>
      engine.encrypt?.({
        input,
        userPassword: p.set_password ?? "",
        ownerPassword: p.set_owner_password ?? randomPassword(),
        permissions: permissionsFor(p),
      }),
    ),
};
