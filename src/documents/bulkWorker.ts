import type { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import type { BulkFailure, BulkJobRepository, BulkJobRow } from './bulkRepository.ts';
import type { DocumentRepository } from './documentRepository.ts';
import { documentFilename } from './filenames.ts';

/**
 * Builds one job's zip, streaming: each document is read from the object store and written into an
 * archive that is itself streamed into the store (a multipart upload with S3), one document at a
 * time. Running it again for a finished job does nothing; a retry rebuilds the zip from the start
 * under the same key.
 */
export class BulkZipBuilder {
  constructor(
    private readonly jobs: BulkJobRepository,
    private readonly docs: DocumentRepository,
    private readonly store: ObjectStore,
    private readonly log: Logger,
  ) {}

  async build(id: string): Promise<'built' | 'skipped'> {
    const job = await this.jobs.start(id);
    if (!job) return 'skipped';
    const key = `bulk/${job.id}.zip`;
    const { size, included, failures } = await this.zip(job, key);
    await this.jobs.finish(job, { objectKey: key, size, result: { included, failures } });
    this.log.info({ job: job.id, included, failed: failures.length, size }, 'bulk document zip built');
    return 'built';
  }

  /** The last attempt failed: the job is failed and every credit given back. */
  async giveUp(id: string, err: unknown): Promise<void> {
    if (await this.jobs.fail(id, err instanceof Error ? err.message : String(err)))
      this.log.error({ err, job: id }, 'bulk document job failed');
  }

  private async zip(job: BulkJobRow, key: string): Promise<{ size: number; included: number; failures: BulkFailure[] }> {
    const docs = new Map((await this.docs.byIds(job.document_ids)).map((d) => [d.id, d]));
    const archive = new ZipArchive({ zlib: { level: 1 } });
    const upload = this.store.putStream(key, archive, 'application/zip');
    // Whichever breaks first (the archive, a source, the upload) ends the attempt.
    const broken = new Promise<never>((_resolve, reject) => {
      archive.once('error', reject);
      upload.catch(reject);
    });
    broken.catch(() => undefined);
    const step = <T>(p: Promise<T>) => Promise.race([p, broken]);
    const failures: BulkFailure[] = [];
    const manifest: { document_id: number; application_number: string; document_type: string; name: string; file: string }[] = [];
    // The document being read, closed if the attempt breaks before the archive has read it.
    let source: Readable | undefined;
    try {
      for (const docId of job.document_ids) {
        const d = docs.get(docId);
        if (!d) {
          failures.push({ document_id: docId, application_number: null, reason: 'the document is no longer in the register' });
          continue;
        }
        const opening = this.store.open(d.object_key);
        try {
          source = await step(opening);
        } catch (err) {
          // The attempt broke while the file was opening: close it once it is open.
          opening.then(
            (s) => s.destroy(),
            () => undefined,
          );
          if (!(err instanceof AppError && err.code === 'not_found')) throw err;
          failures.push({
            document_id: d.id,
            application_number: d.application_number,
            reason: "the document's file is missing from the store",
          });
          continue;
        }
        const file = `${d.application_number}/${documentFilename(d)}`;
        const written = new Promise((resolve) => archive.once('entry', resolve));
        archive.append(source, { name: file, date: new Date(`${d.upload_date}T00:00:00Z`) });
        // One open source at a time, however many documents the job has.
        await step(written);
        source = undefined;
        manifest.push({ document_id: d.id, application_number: d.application_number, document_type: d.document_type, name: d.name, file });
      }
      archive.append(JSON.stringify({ job_id: job.id, documents: manifest, failures }, null, 2), { name: 'manifest.json' });
      await step(archive.finalize());
      return { size: await step(upload), included: manifest.length, failures };
    } catch (err) {
      source?.destroy();
      archive.abort();
      await upload.catch(() => undefined);
      throw err;
    }
  }
}
