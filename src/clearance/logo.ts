import fs from 'node:fs/promises';
import { type FetchOptions, fetchImage } from '../logos/imageFetch.ts';
import { checkUpload } from '../logos/service.ts';
import type { SidecarClient } from '../logos/sidecarClient.ts';
import type { StoredUpload } from '../schema/upload.ts';
import type { LogoProbe } from '../threats/repository.ts';

// The proposed logo of a clearance, as logo search takes an image: an upload judged by its bytes, or a
// URL fetched through the address policy (src/logos/imageFetch.ts, src/outbound/); then embedded by
// the ML sidecar, whose vector the analysis compares with the register's logos.

export type LogoSource = { kind: 'upload'; file: StoredUpload } | { kind: 'url'; url: string };

export class ProposedLogos {
  constructor(
    private readonly sidecar: Pick<SidecarClient, 'embed'>,
    private readonly fetch: FetchOptions,
  ) {}

  /** Refuses, before anything is charged or fetched, an upload that is no image logo search takes by its bytes, or claims another type. */
  check(source: LogoSource): void {
    if (source.kind === 'upload') checkUpload(source.file);
  }

  /** The image's vector under the model the sidecar embeds with (the model the register's logos were indexed by). */
  async embed(source: LogoSource): Promise<LogoProbe> {
    return this.embedBytes(await this.read(source));
  }

  /** The image's bytes: the upload's, or fetched from its URL. */
  async read(source: LogoSource): Promise<Buffer> {
    return source.kind === 'upload' ? fs.readFile(source.file.path) : fetchImage(source.url, this.fetch);
  }

  async embedBytes(bytes: Buffer): Promise<LogoProbe> {
    const e = await this.sidecar.embed(bytes);
    return { model: e.model, dims: e.vector.length, vector: e.vector };
  }
}
