import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import { RECEIPT_EVENTS, subscribeWebhook, type ReceiptEvent } from '../../webhooks';
import type { ReceiptsContext } from '../../transport';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['subscribe'] } },
	[
		{
			displayName: 'Event',
			name: 'event_name',
			type: 'options',
			options: [
				{
					name: 'Issue Error',
					value: 'issue-error',
					description: 'An error occurred in a step of the issue process (CREADO or DEVUELTO)',
				},
				{
					name: 'Receipt Issued',
					value: 'receipt-issued',
					description: 'The issue process ended (AUTORIZADO or NO AUTORIZADO)',
				},
			],
			default: 'receipt-issued',
		},
		{
			displayName: 'Webhook URL',
			name: 'webhook_url',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/webhook/receipts',
			description:
				'Address that receives the JSON notification (e.g. the production URL of a Webhook or Receipts Trigger node)',
		},
	],
);

/** What Subscribe sends, checked. */
interface Subscription {
	event_name: ReceiptEvent;
	webhook_url: string;
}

/** Checks item `i` before the first request (see shared/router.ts): every problem in one error, nothing sent. */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): Subscription {
	const body = {
		event_name: String(this.getNodeParameter('event_name', i, '')).trim() as ReceiptEvent,
		webhook_url: String(this.getNodeParameter('webhook_url', i, '')).trim(),
	};
	const check = new Checker();
	check.oneOf('event_name', body.event_name, RECEIPT_EVENTS, { required: true });
	check.matches(
		'webhook_url',
		body.webhook_url,
		/^https?:\/\/[^\s/$.?#][^\s]*$/i,
		'is not an http(s) URL',
		{ required: true },
	);
	check.throwIfFailed(this.getNode(), i);
	return body;
}

/** POST /webhooks, through the subscription client the Receipts Trigger uses too (X-Key only; see webhooks.ts). */
export async function execute(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	checked?: Subscription,
): Promise<OperationResult> {
	const body = checked ?? validate.call(this, ctx, i);
	const answer = await subscribeWebhook(ctx.api, body, i);
	// The spec does not show the answer's shape: keep it, and say what was subscribed.
	return { ...body, ...(answer as IDataObject) };
}
