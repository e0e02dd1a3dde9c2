import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { attachRecovery, mayHaveBeenProcessed, reword } from '../../../shared/errors';
import { path } from '../../../shared/path';
import { Checker } from '../../../shared/validate';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from '../common/id';
import { requestTimeoutOption } from '../common/output';

/**
 * Document → Send by E-mail: `POST /edocs/send-email/{id}`, optionally with `{"destinatarios": [...]}`; the
 * answer is `{id, result}` (the service's public documentation, Envío por correo; the spec does not show
 * it). It signs nothing, so `X-Key` only. Sending twice mails the recipients twice: the request is never
 * re-sent once it may have reached the service (a 429 still is: the service did not take it).
 */

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['sendEmail'] } },
	[
		receiptIdField('ID of the receipt (any kind) to e-mail'),
		{
			displayName: 'Recipients',
			name: 'recipients',
			type: 'string',
			default: '',
			placeholder: 'e.g. buyer@example.com, accounting@example.com',
			description:
				"E-mail addresses separated by commas (or a list from an expression). Empty: the service sends it to the e-mail written in the receipt (the buyer's).",
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [requestTimeoutOption],
		},
	],
);

/** The recipients of item `i`, checked; undefined when none are given. */
function readRecipients(this: IExecuteFunctions, i: number): string[] | undefined {
	const raw = this.getNodeParameter('recipients', i, '') as unknown;
	const list = (
		Array.isArray(raw) ? raw.map((r) => String(r ?? '')) : String(raw ?? '').split(/[,;\n]/)
	)
		.map((r) => r.trim())
		.filter(Boolean);
	const check = new Checker();
	list.forEach((address, n) => check.email(`recipients[${n}]`, address));
	check.throwIfFailed(this.getNode(), i);
	return list.length ? [...new Set(list)] : undefined;
}

interface CheckedItem {
	id: string;
	destinatarios: string[] | undefined;
}

/** Checks the item before any item of the batch is sent (see shared/router.ts); execute sends what it read. */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): CheckedItem {
	return { id: readReceiptId.call(this, i), destinatarios: readRecipients.call(this, i) };
}

export async function execute(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	checked?: CheckedItem,
): Promise<OperationResult> {
	const { id, destinatarios } = checked ?? validate.call(this, ctx, i);
	try {
		const answer = await ctx.api.write(path`/edocs/send-email/${id}`, i, {
			body: destinatarios ? { destinatarios } : undefined,
		});
		return { id, ...answer, ...(destinatarios ? { destinatarios } : {}) };
	} catch (error) {
		throw mayHaveBeenProcessed(error) ? mayHaveBeenSent(error, id, destinatarios) : error;
	}
}

/** A lost answer: the e-mail may have gone out. Said so, with what to check, and not sent again. */
function mayHaveBeenSent(error: unknown, id: string, destinatarios: string[] | undefined): unknown {
	const instruction = `The e-mail of receipt ${id} may have been sent: the answer was lost, so it was not sent again (the recipients would get it twice). Check the receipt's correos_enviados (Get of its kind) before sending it again.`;
	reword(error, `The e-mail of receipt ${id} may have been sent: `, instruction);
	return attachRecovery(error, { email_may_have_been_sent: true, id, destinatarios, instruction });
}
