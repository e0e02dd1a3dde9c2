import type { CreatedLedger } from '../shared/created';
import type { Semaphore } from '../shared/rateLimit';
import type { RouterContext } from '../shared/router';
import type { IDataObject } from 'n8n-workflow';
import type { ClientSettings, RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage } from '../shared/failures';
import { ServiceClient } from '../shared/transport';
import { messageLine } from './domain/outcome';

/**
 * Receipts (Ecuador) service: base URL and `X-Key` from the credential (the credential's `authenticate`
 * adds X-Key to every request). `X-Password`, the signing certificate's password, is added by the client's
 * `sign` only: the operations that sign (issue, issue from XML, reissue, authorize). The spec sends it "on
 * issuing operations" (receipts service, Authentication); reads and other writes never carry it. No write is
 * safe to repeat: an issue, an e-mail or a subscription would happen twice.
 */

/** Tax-authority messages (`mensajes[]`) as readable lines: `[ERROR 35] ARCHIVO NO CUMPLE ESTRUCTURA XML`. */
function messageLines(mensajes: unknown): string[] {
	if (!Array.isArray(mensajes)) return [];
	return mensajes.filter((m): m is IDataObject => !!m && typeof m === 'object').map(messageLine);
}

export const receiptsService: ServiceDefinition = {
	name: 'Receipts',
	credentialType: 'receiptsApi',
	credentialLabel: 'API key',
	secretFields: ['apiKey', 'certificatePassword'],
	signing: {
		header: 'X-Password',
		field: 'certificatePassword',
		label: 'Certificate Password',
		purpose: "signs the receipt with the signing certificate's password",
	},
	// The service's public documentation, Idempotencia: on POST /invoices/issue and /invoices/issue/xml only
	// (actions/common/idempotency.ts).
	idempotencyHeader: 'Idempotency-key',
	baseUrl: (credentials) => String(credentials.baseUrl ?? ''),
	describeError(status, body) {
		const b = (body && typeof body === 'object' ? body : {}) as IDataObject;
		const lines = [
			...messageLines(b.mensajes),
			...messageLines((b.autorizacion as IDataObject | undefined)?.mensajes),
			...messageLines((b.envio_sri as IDataObject | undefined)?.mensajes),
		];
		const firma = b.firma as IDataObject | undefined;
		if (firma && typeof firma === 'object')
			lines.push(`signing: ${String(firma.error ?? firma.result ?? 'failed')}`);
		const said = bodyMessage(body) ?? lines[0];
		const details = lines.length ? `\n- ${lines.join('\n- ')}` : '';
		if (status === 401 || status === 403) {
			return {
				message: `Receipts refused the API key${said ? ` (${said})` : ''}`,
				description:
					'Check the API Key of the Receipts credential (sent as X-Key) and the Base URL: test and production accounts have different keys.',
			};
		}
		if (status === 404) {
			return {
				message: `Receipts: ${said ?? 'not found'}`,
				description: `Check the receipt ID: it is the \`id\` returned when the receipt was issued.${details}`,
			};
		}
		if (status === 400 || status === 409 || status === 422) {
			return {
				said,
				message: `Receipts rejected the request: ${said ?? 'invalid data'}`,
				description: `The service refused the receipt.${details || ' Check the fields named above.'}`,
			};
		}
		if (status === 429) {
			return {
				message: 'Receipts: too many requests',
				description:
					'The service is rate limiting; the request was re-sent as many times as allowed. Lower Options → Parallel Status Checks (Wait for Final State) or Parallel Requests (reads), or wait before running again.',
			};
		}
		return {
			message: `Receipts answered ${status}: ${said ?? 'unexpected error'}`,
			description:
				status >= 500
					? `The service had a problem; reads were retried, requests that issue or sign are never re-sent after a 5xx.${details}`
					: details || undefined,
		};
	},
};

export interface ReceiptsContext extends RouterContext {
	api: ServiceClient;
	/** The receipts this execution issued: listed when a failure stops the node (see shared/created.ts). */
	created: CreatedLedger;
	/** Bounds the status checks in flight while a batch waits for its final states. */
	checks: Semaphore;
}

/** The Receipts client of one execution, dropdown, activation or delivery (Request Timeout: `settings.timeoutMs`). */
export const receiptsClient = (ctx: RequestContext, settings: ClientSettings = {}) =>
	new ServiceClient(ctx, receiptsService, settings);
