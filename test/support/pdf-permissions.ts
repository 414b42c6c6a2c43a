/** Every PDF permission granted, as the pdf engines' encrypt takes them (no imports: the contract suite runs in workerd and Chromium too). */
export const ALL_PERMISSIONS = {
  printing: "highResolution" as const,
  copying: true,
  contentAccessibility: true,
  documentAssembly: true,
  fillingForms: true,
  annotating: true,
  modifying: true,
};
