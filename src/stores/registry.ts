/**
 * The store table (issue 35): one row per storage protocol. Each row becomes import/<name> and
 * export/<name> (operations/storage/), listed by GET /v2/operations and run by the platform engine.
 * Adding a store: a folder under src/stores/ with its StoreConnector, and a row here.
 */
import { azureBlob } from "./azure-blob";
import { googleCloudStorage } from "./google-cloud-storage";
import { openstack } from "./openstack";
import { s3 } from "./s3";
import { sftp } from "./sftp";
import type { StoreConnector } from "./types";

/** Every store this server imports from and exports to. */
export const STORES: readonly StoreConnector[] = [s3, azureBlob, googleCloudStorage, openstack, sftp];
