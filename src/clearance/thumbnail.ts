import { openImage } from '../logos/imageInput.ts';

// Logo thumbnails of clearance reports: the proposal's, kept in the object store when it is screened
// (the report never fetches anything), and the register's, read from the store. Each goes through the
// one door images are opened by (src/logos/imageInput.ts: formats by their bytes, an SVG drawn safely)
// and comes out a small PNG, which pdfkit can place whatever the logo's own format.

export const THUMBNAIL_SIDE = 160;

/** A PNG of at most THUMBNAIL_SIDE a side, or null when the image cannot be opened. */
export async function thumbnail(bytes: Buffer): Promise<Buffer | null> {
  try {
    const img = await openImage(bytes);
    return await img
      .pipeline()
      .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}

/** Where a proposal's thumbnail is kept: a single clearance's, or a batch proposal's. */
export const proposalLogoKey = (id: string, idx?: number) =>
  idx === undefined ? `clearances/${id}/proposal.png` : `clearance-batches/${id}/${idx}.png`;
