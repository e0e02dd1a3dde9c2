/**
 * What the Document Extraction node does, in one sentence: its own description, and the start of the Document
 * Extraction Trigger's. n8n's node panel shows an action node and its trigger as one entry when the trigger's
 * type name is the node's plus "Trigger" (extraction, extractionTrigger), and that entry takes the trigger's
 * description (n8n editor, useActionsGeneration.ts, generateMergedNodesAndActions: `app.description =
 * trigger.description`); the trigger's description therefore begins with this one, so searching for the node
 * shows what the node does.
 */
export const EXTRACTION_DESCRIPTION =
	'Extract CFDI invoices, tax status and retention certificates from the SAT (Mexico), download them as XML or PDF, and register taxpayers (Ecuador)';
