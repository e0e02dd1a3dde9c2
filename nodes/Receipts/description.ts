/**
 * What the Receipts node does, in one sentence: its own description, and the start of the Receipts Trigger's.
 * n8n's node panel shows an action node and its trigger as one entry (the trigger's name without "Trigger"), and
 * that entry takes the trigger's description (n8n editor, useActionsGeneration.ts, generateMergedNodesAndActions:
 * `app.description = trigger.description`); the trigger's description therefore begins with this one, so
 * searching for the node shows what the node does.
 */
export const RECEIPTS_DESCRIPTION =
	'Issue Ecuadorian electronic receipts (invoices, credit and debit notes, retentions, waybills, purchase settlements), follow their SRI authorization, e-mail and download them';
