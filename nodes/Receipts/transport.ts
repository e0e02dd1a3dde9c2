import type { CreatedLedger } from '../shared/created';
import type { Semaphore } from '../shared/rateLimit';
import type { RouterContext } from '../shared/router';
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { BinaryAnswer, RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage, ServiceClient } from '../shared/transport';
import { messageLine } from './domain/outcome';
import { redact, scrubError } from '../shared/redact';
import { factsOf } from '../shared/errors';

/**
 * Receipts (Ecuador) service: base URL and `X-Key` from the credential (the credential's `authenticate`
 * adds X-Key to every request). `X-Password`, the signing certificate's password, is added here and only
 * by `sign()`: the operations that sign (issue, issue from XML, reissue, authorize). The spec sends it "on
 * issuing operations" (receipts service, Authentication); reads and other writes never carry it.
 */

/** Tax-authority messages (`mensajes[]`) as readable lines: `[ERROR 35] ARCHIVO NO CUMPLE ESTRUCTURA XML`. */
function messageLines(mensajes: unknown): string[] {
	if (!Array.isArray(mensajes)) return [];
	return mensajes.filter((m): m is IDataObject => !!m && typeof m === 'object').map(messageLine);
}

export const receiptsService: ServiceDefinition = {
	name: 'Receipts',
	credentialType: 'receiptsApi',
	baseUrl: (credentials) => String(credentials.baseUrl ?? ''),
	describeError(status, rawBody) {
		const body = redact(rawBody);
		const b = (body && typeof body === 'object' ? body : {}) as IDataObject;
		const lines = [
			...messageLines(b.mensajes),
			...messageLines((b.autorizacion as IDataObject | undefined)?.mensajes),
			...messageLines((b.envio_sri as IDataObject | undefined)?.mensajes),
		];
		const firma = b.firma as IDataObject | undefined;
		if (firma && typeof firma === 'object') lines.push(`signing: ${String(firma.error ?? firma.result ?? 'failed')}`);
		const said = bodyMessage(body) ?? lines[0];
		const details = lines.length ? `\n- ${lines.join('\n- ')}` : '';
		if (status === 401 || status === 403) {
			return {
				message: `Receipts refused the API key${said ? ` (${said})` : ''}`,
				description: 'Check the API Key of the Receipts credential (sent as X-Key) and the Base URL: test and production accounts have different keys.',
			};
		}
		if (status === 404) {
			return { message: `Receipts: ${said ?? 'not found'}`, description: `Check the receipt ID: it is the \`id\` returned when the receipt was issued.${details}` };
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
				description: 'The service is rate limiting; the request was re-sent as many times as allowed. Lower Options → Parallel Status Checks (Wait for Final State) or Parallel Requests (reads), or wait before running again.',
			};
		}
		return {
			message: `Receipts answered ${status}: ${said ?? 'unexpected error'}`,
			description: status >= 500 ? `The service had a problem; reads were retried, requests that issue or sign are never re-sent after a 5xx.${details}` : details || undefined,
		};
	},
};

/** `scheme://host:port` of an http(s) address, or undefined when it is not one. */
export function originOf(address: string): string | undefined {
	try {
		const url = new URL(address);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

export interface ReceiptsRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	/** See ApiRequest.deadline. */
	deadline?: number;
}

export interface ReceiptsSettings {
	/** Milliseconds a request may go without an answer. */
	timeoutMs?: number;
}

/** The Receipts transport one execution uses: the shared client plus the X-Password rule and secret scrubbing. */
export class ReceiptsApi {
	constructor(
		readonly client: ServiceClient,
		private readonly settings: ReceiptsSettings = {},
	) {}

	/** Reads: X-Key only; retried on 429/5xx/network failures (idempotent), never past `deadline` (epoch ms). */
	async read(path: string, itemIndex?: number, deadline?: number): Promise<IDataObject> {
		return await this.send({ method: 'GET', path, deadline }, false, itemIndex);
	}

	/**
	 * Operations that sign: X-Key plus X-Password. Never re-sent once the request may have reached the service
	 * (a receipt must not be issued twice).
	 */
	async sign(req: ReceiptsRequest, itemIndex?: number): Promise<IDataObject> {
		return await this.send(req, true, itemIndex);
	}

	/** Other writes (subscribe, send e-mail): X-Key only; never re-sent once they may have reached the service. */
	async write(req: ReceiptsRequest, itemIndex?: number): Promise<IDataObject> {
		return await this.send(req, false, itemIndex);
	}

	/**
	 * A file the service links to (a receipt's `url_formato_impresion` or `url_documento_electronico`): a
	 * read, retried like one. `X-Key` goes only to the origin of the credential's Base URL (scheme, host and
	 * port). Anywhere else — the real service serves printable forms from another host (receipts service's
	 * public documentation, Descargas) — the request carries no credential: the account key never leaves the
	 * service.
	 */
	async file(url: string, itemIndex?: number): Promise<BinaryAnswer & { withKey: boolean }> {
		const base = String((await this.client.credentialData()).baseUrl ?? '');
		const withKey = originOf(url) !== undefined && originOf(url) === originOf(base);
		try {
			const answer = await this.client.request(
				{ method: 'GET', path: url, url, anonymous: !withKey, binary: true, timeoutMs: this.settings.timeoutMs },
				itemIndex,
			);
			return { ...answer, withKey };
		} catch (error) {
			const { status } = factsOf(error);
			if (!withKey && (status === 401 || status === 403) && error instanceof Error) {
				// Not "the key was refused": none was sent.
				const e = error as Error & { description?: string | null };
				e.message = `HTTP ${status} to a request without the API key`;
				e.description = `${originOf(url)} is not the host of the credential's Base URL, so the API key was not sent there (it is never sent to another host). A file address that needs it cannot be downloaded here: open it in a browser to see what it asks for.`;
			}
			throw scrubError(error, await this.secrets());
		}
	}

	private async secrets(): Promise<string[]> {
		const data = await this.client.credentialData();
		return [data.apiKey, data.certificatePassword].filter((s): s is string => typeof s === 'string' && s !== '');
	}

	private async send(req: ReceiptsRequest, signing: boolean, itemIndex?: number): Promise<IDataObject> {
		const headers: IDataObject = {};
		if (signing) {
			const data = await this.client.credentialData();
			const password = String(data.certificatePassword ?? '');
			if (!password) {
				throw new NodeOperationError(this.client.node, `${itemIndex === undefined ? '' : ``}The Receipts credential has no Certificate Password`, {
					itemIndex,
					description: `${req.method} ${req.path} signs the receipt, which needs the signing certificate's password (sent as X-Password). Add it to the credential. Nothing was sent.`,
				});
			}
			headers['X-Password'] = password;
		}
		try {
			const answer = await this.client.request<unknown>(
				{ method: req.method, path: req.path, body: req.body, headers, idempotent: req.method === 'GET', timeoutMs: this.settings.timeoutMs, deadline: req.deadline },
				itemIndex,
			);
			const clean = redact(answer, await this.secrets());
			if (clean === undefined || clean === null || clean === '') return {}; // e.g. an empty 201
			return typeof clean === 'object' && !Array.isArray(clean) ? (clean as IDataObject) : { result: clean as IDataObject[string] };
		} catch (error) {
			throw scrubError(error, await this.secrets());
		}
	}
}

export interface ReceiptsContext extends RouterContext {
	api: ReceiptsApi;
	/** The receipts this execution issued: listed when a failure stops the node (see shared/created.ts). */
	created: CreatedLedger;
	/** Bounds the status checks in flight while a batch waits for its final states. */
	checks: Semaphore;
}

export const receiptsClient = (ctx: RequestContext, settings: ReceiptsSettings = {}) => new ReceiptsApi(new ServiceClient(ctx, receiptsService), settings);
