// The demo-invoices dataset's content: JSON schemas of its inputs and outputs, and examples with attachments.
import type { Ctx } from '../context';
import { storeBlobs } from '../store/examples';
import type { AttachmentRef } from '../store/revisions';
import { demoPdf, demoPng } from './files';

/** What the invoice extractor is given: the invoice's text, and the currency when the sender states one. */
export const INVOICE_INPUTS_SCHEMA = {
  title: 'InvoiceInput',
  type: 'object',
  properties: {
    invoice_text: { type: 'string', description: 'The invoice as plain text (e-mail body or OCR of the scan).' },
    currency: { type: 'string', enum: ['USD', 'EUR', 'GBP'], description: 'ISO 4217 code, when the sender states one.' },
  },
  required: ['invoice_text'],
  additionalProperties: false,
};
/** What it should extract. */
export const INVOICE_OUTPUTS_SCHEMA = {
  title: 'InvoiceFields',
  type: 'object',
  properties: {
    vendor: { type: 'string', description: 'Who sent the invoice.' },
    total: { type: 'number', minimum: 0, description: 'Amount due, taxes included.' },
    due_date: { type: 'string', format: 'date', description: 'When payment is due, if the invoice says.' },
  },
  required: ['total', 'vendor'],
  additionalProperties: false,
};

export interface InvoiceSpec {
  inputs: { invoice_text: string; currency?: 'USD' | 'EUR' | 'GBP' };
  outputs: { vendor: string; total: number; due_date?: string };
  split: 'train' | 'test';
  files?: Record<string, { mime: string; data: Buffer }>;
}

export const ACME_TEXT = [
  'ACME Hosting Inc.', 'Invoice INV-2024-0117', 'Date: 2024-03-01   Due: 2024-03-31', '',
  'Dedicated server (March)        1,100.00', 'Backup storage 500 GB             140.50', '',
  'Total due: USD 1,240.50',
].join('\n');

/**
 * The demo-invoices examples as first written (version `v1`). Files are generated, so every demo
 * database has the same bytes and a test can compare what the attachment URLs serve.
 */
export function demoInvoices(): InvoiceSpec[] {
  // A thumbnail of a receipt: paper, a dark header, grey text lines, a red total.
  const scan = demoPng(24, 32, (x, y) => {
    if (x < 2 || x > 21) return [214, 214, 210];
    if (y >= 2 && y < 6) return [40, 52, 72];
    if (y >= 26 && y < 28 && x >= 12 && x < 20) return [196, 40, 40];
    if (y >= 9 && y < 24 && y % 3 === 0 && x >= 4 && x < 4 + ((y * 7) % 13) + 4) return [150, 150, 150];
    return [252, 251, 246];
  });
  return [
    {
      inputs: { invoice_text: ACME_TEXT, currency: 'USD' },
      outputs: { vendor: 'ACME Hosting Inc.', total: 1240.5, due_date: '2024-03-31' },
      split: 'train',
      files: {
        'invoice.txt': { mime: 'text/plain', data: Buffer.from(`${ACME_TEXT}\n`, 'utf8') },
        'invoice.pdf': { mime: 'application/pdf', data: demoPdf(ACME_TEXT.split('\n').filter(Boolean)) },
      },
    },
    {
      inputs: { invoice_text: 'Bäckerei Müller GmbH\nRechnung Nr. 4471\n20 Brezeln, 12 Croissants\nGesamtbetrag: 86,40 EUR', currency: 'EUR' },
      outputs: { vendor: 'Bäckerei Müller GmbH', total: 86.4 },
      split: 'train',
      files: { 'receipt.png': { mime: 'image/png', data: scan } },
    },
    {
      // Written with the OCR's misreading of the total; the later version corrects it.
      inputs: { invoice_text: 'Northwind Traders Ltd\nInvoice 00913 — payable by 14 April 2024\nTea, assorted (40 boxes)\nTotal due: £321.00' },
      outputs: { vendor: 'Northwind Traders Ltd', total: 312 },
      split: 'test',
    },
    {
      inputs: { invoice_text: 'GLOBEX OFFICE SUPPLIES\nOrder #88-1203\nPrinter paper x3, toner x1\nAmount: $57.99', currency: 'USD' },
      outputs: { vendor: 'Globex Office Supplies', total: 57.99 },
      split: 'test',
    },
    {
      inputs: { invoice_text: 'Initech Consulting\nInvoice IC-332, due 2024-05-15\n32 h architecture review @ 150.00\nTotal: EUR 4,800.00', currency: 'EUR' },
      outputs: { vendor: 'Initech Consulting', total: 4800, due_date: '2024-05-15' },
      split: 'train',
    },
  ];
}

/** Stores attachment bytes like the multipart example endpoints do: content-addressed blobs, referenced by hash. */
export function storeAttachments(ctx: Ctx, files: InvoiceSpec['files']): Record<string, AttachmentRef> | null {
  return files ? storeBlobs(ctx, files) : null;
}
