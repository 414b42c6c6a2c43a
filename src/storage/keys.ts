/**
 * FileStore key layout: `jobs/<jobId>/<taskId>/<index>/<filename>`. One prefix per job, so
 * deleting a job deletes its files (retention, DELETE /v2/jobs/{id}); the index keeps two outputs
 * with the same name apart. Filenames are already safe base names (operations/io/filenames.ts).
 */
export function outputKey(jobId: string, taskId: string, index: number, filename: string): string {
  return `jobs/${jobId}/${taskId}/${index}/${filename}`;
}

/** The file name a key was stored under (its last segment). */
export function filenameOfKey(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}
