import type { Viewer } from '../accounts/access.ts';
import type { Resource } from '../accounts/callerRepository.ts';
import { AppError, notFound } from '../errors.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { gateOf } from '../trademarks/gate.ts';
import type { DocumentRepository, DocumentRow } from './documentRepository.ts';
import { documentFilename, safeName } from './filenames.ts';
import type { JournalRepository } from './journalRepository.ts';

export type Charge = (units: number, resource?: Resource) => Promise<void>;

const EXPIRES_IN = '30 minutes';

/**
 * Document and journal links. Every link handed out costs one doc_views credit, charged (or refused
 * whole with 429) after everything that can refuse the request and before any link is signed.
 */
export class DocumentService {
  constructor(
    private readonly docs: DocumentRepository,
    private readonly journals: JournalRepository,
    private readonly store: ObjectStore,
  ) {}

  private link(d: DocumentRow, accountId: string) {
    return this.store.signedUrl(d.object_key, { accountId, filename: documentFilename(d) });
  }

  private entry(d: DocumentRow, accountId: string) {
    const { url, expiresAt } = this.link(d, accountId);
    return {
      id: d.id,
      name: d.name,
      document_type: d.document_type,
      upload_date: d.upload_date,
      content_type: d.content_type,
      size_bytes: d.size_bytes,
      presigned_url: url,
      url_expires_in: EXPIRES_IN,
      url_expires_at: expiresAt.toISOString(),
    };
  }

  /** A mark's documents, each with a fresh link; opposition filings are listed by oppositionDocuments. */
  async documents(appNo: string, viewer: Viewer, charge: Charge) {
    const rows = await this.charged(appNo, false, viewer, charge);
    return { application_number: appNo, count: rows.length, documents: rows.map((d) => this.entry(d, viewer.accountId)) };
  }

  async oppositionDocuments(appNo: string, viewer: Viewer, charge: Charge) {
    const rows = await this.charged(appNo, true, viewer, charge);
    return {
      application_number: appNo,
      count: rows.length,
      documents: rows.map((d) => ({
        ...this.entry(d, viewer.accountId),
        opposition_id: d.opposition_id!,
        opposition_number: d.opposition_number,
      })),
    };
  }

  // Each listing's route refuses a plan without its category before anything is read; the gate
  // still decides row by row, so a listing never shows a document whose category the plan lacks.
  private async charged(appNo: string, opposition: boolean, viewer: Viewer, charge: Charge): Promise<DocumentRow[]> {
    const found = await this.docs.forMark(appNo, opposition);
    if (!found) throw notFound(`trademark ${appNo}`);
    const rows = gateOf(viewer.categories).rows('documents', found);
    // An empty listing hands out no link: it is an ordinary read.
    await (rows.length ? charge(rows.length, 'doc_views') : charge(1, 'api_calls'));
    return rows;
  }

  async url(docId: number, viewer: Viewer, charge: Charge) {
    const d = await this.docs.byId(docId);
    if (!d) throw notFound(`document ${docId}`);
    gateOf(viewer.categories).requireRow('documents', d);
    await charge(1, 'doc_views');
    const { url, expiresAt } = this.link(d, viewer.accountId);
    return { document_id: d.id, presigned_url: url, expires_in: EXPIRES_IN, expires_at: expiresAt.toISOString() };
  }

  async journal(journalId: number, viewer: Viewer, charge: Charge) {
    const j = await this.journals.get(journalId);
    if (!j) throw notFound(`journal ${journalId}`);
    const key = await this.journals.objectKey(journalId);
    if (!key) throw new AppError('not_found', `journal ${j.journal_number} has no PDF in the register`);
    await charge(1, 'doc_views');
    const { url, expiresAt } = this.store.signedUrl(key, {
      accountId: viewer.accountId,
      filename: `Trade Marks Journal ${safeName(j.journal_number)}.pdf`,
    });
    return {
      journal_id: j.id,
      journal_number: j.journal_number,
      presigned_url: url,
      expires_in: EXPIRES_IN,
      expires_at: expiresAt.toISOString(),
    };
  }
}
