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

/**
 * Key of an uploaded file: `jobs/<jobId>/<taskId>/upload-<nonce>/<filename>`. The nonce keeps two
 * concurrent uploads to one form apart, so the one refused (the form was already used) deletes
 * only its own bytes, never the file the task recorded (issue 10).
 */
export function uploadKey(jobId: string, taskId: string, filename: string): string {
  return `jobs/${jobId}/${taskId}/upload-${crypto.randomUUID()}/${filename}`;
}
