import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import { factsOf, mayHaveBeenProcessed } from '../../../shared/errors';
import { fixedPath, path } from '../../../shared/path';
import { RECEIPT_KINDS, type ReceiptKind } from '../../domain/schemas';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from './id';
import type { FormVersion } from './fields';
import { issueProperties, prepareReceipt } from './issue';
import type { FromFields } from './receiptInput';
import { afterCreated } from './recovery';
import { afterIssue } from './wait';

/**
 * Reissue of any receipt kind: `POST /<kind>/{id}/reissue` with the corrected body, for a receipt in NO
 * AUTORIZADO or DEVUELTO (receipts service, States and transitions, shown for waybills; the service's public
 * documentation has the same operation for every kind). It signs (X-Password) and is never re-sent once it
 * may have reached the service: the receipt exists either way, so a lost answer says so with its ID.
 */

export const reissueProperties = (
	kind: ReceiptKind,
	example: IDataObject,
	fields: (v: FormVersion) => INodeProperties[],
	extra: INodeProperties[] = [],
): INodeProperties[] => [
	receiptIdField(
		`ID of the ${RECEIPT_KINDS[kind].name} to correct: it must be in NO AUTORIZADO or DEVUELTO`,
	),
	...extra,
	...issueProperties(example, fields, { accessKey: false }),
];

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export async function validateReissue(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	kind: ReceiptKind,
	fromFields: FromFields,
): Promise<void> {
	readReceiptId.call(this, i);
	await prepareReceipt.call(this, ctx, i, kind, fromFields, REISSUE);
}

const REISSUE = { accessKey: false, action: 'reissue' } as const;

/** Sends the corrected receipt; an authorized one is refused by the service, and the error says why. */
export async function reissueReceipt(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	kind: ReceiptKind,
	base: string,
	fromFields: FromFields,
): Promise<OperationResult | Deferred> {
	const id = readReceiptId.call(this, i);
	const { body, warnings, wait } = await prepareReceipt.call(
		this,
		ctx,
		i,
		kind,
		fromFields,
		REISSUE,
	);
	let answer;
	try {
		answer = await ctx.api.sign(path`${fixedPath(base)}/${id}/reissue`, i, { body });
	} catch (error) {
		throw mayHaveBeenProcessed(error) ? afterCreated(error, { id }) : explain(error, kind, id);
	}
	return await afterIssue.call(this, ctx, i, { id, ...answer }, wait, { warnings });
}

/** The service's refusal (e.g. an authorized receipt) said in words that name the rule. */
function explain(error: unknown, kind: ReceiptKind, id: string): Error {
	if (!(error instanceof NodeApiError)) return error as Error;
	const { status = 0, said } = factsOf(error);
	if (status >= 400 && status < 500 && ![401, 403, 404, 429].includes(status)) {
		const { name, plural } = RECEIPT_KINDS[kind];
		error.message = `${name[0].toUpperCase()}${name.slice(1)} ${id} cannot be reissued: ${said ?? 'the service refused it'}`;
		error.description =
			`Only ${plural} in NO AUTORIZADO or DEVUELTO can be reissued: an authorized ${name} cannot be changed (issue a new one instead). Otherwise, correct what the service's messages name. ${error.description ?? ''}`.trim();
	}
	return error;
}
