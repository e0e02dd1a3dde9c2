import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import type { ReceiptsContext } from '../../transport';

/** States after which the issue process does not move by itself. */
export const FINAL_STATES = ['AUTORIZADO', 'NO AUTORIZADO', 'DEVUELTO', 'ERROR'] as const;

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return only the key fields (ID, access key, state, number, authorization number and date, authorization messages, URLs) instead of the whole receipt',
};

/** "Wait for Final State" and its timeout: on Issue, Issue From XML, Reissue and Authorize. */
export const waitFields: INodeProperties[] = [
	{
		displayName: 'Wait for Final State',
		name: 'waitForFinalState',
		type: 'boolean',
		default: false,
		description:
			'Whether to poll the receipt until the tax authority decides (AUTORIZADO, NO AUTORIZADO, DEVUELTO or ERROR) or the timeout passes, and output the final receipt including autorizacion.mensajes',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 120,
		displayOptions: { show: { waitForFinalState: [true] } },
		description: 'How long to wait at most. When it passes, the receipt is output in its last state with wait_timed_out set to true.',
	},
];

/** Advanced option: first poll interval, growing by half after each poll (fractions allowed). */
export const pollIntervalOption: INodeProperties = {
	displayName: 'Poll Interval (Seconds)',
	name: 'pollInterval',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: 5,
	description: 'Wait for Final State: seconds before the first check; each later check waits 1.5 times longer, up to 30 seconds',
};

export const outputOptions = (extra: INodeProperties[] = []): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [pollIntervalOption, ...extra],
});

function isFinal(state: unknown): boolean {
	return FINAL_STATES.includes(String(state ?? '').toUpperCase() as (typeof FINAL_STATES)[number]);
}

/**
 * Polls GET /edocs/{id} with backoff until a final state or the timeout. Returns the last document seen
 * and whether the wait timed out.
 */
export async function waitForFinal(this: IExecuteFunctions, ctx: ReceiptsContext, i: number, id: string): Promise<{ doc: IDataObject; timedOut: boolean }> {
	const timeoutMs = Math.max(0, Number(this.getNodeParameter('waitTimeout', i, 120)) * 1000);
	const firstMs = Math.max(10, Number(this.getNodeParameter('options.pollInterval', i, 5)) * 1000);
	const capMs = Math.max(firstMs, 30000);
	const deadline = Date.now() + timeoutMs;
	let delay = firstMs;
	let doc: IDataObject = {};
	for (;;) {
		const remaining = deadline - Date.now();
		if (remaining <= 0) return { doc, timedOut: true };
		await sleep(Math.min(delay, remaining));
		doc = await ctx.api.read(`/edocs/${encodeURIComponent(id)}`, i);
		if (isFinal(doc.estado)) return { doc, timedOut: false };
		delay = Math.min(capMs, delay * 1.5);
	}
}

/** The key fields of a receipt. */
export function simplify(receipt: IDataObject): IDataObject {
	const auth = (receipt.autorizacion ?? {}) as IDataObject;
	const out: IDataObject = {
		id: receipt.id,
		clave_acceso: receipt.clave_acceso,
		estado: receipt.estado ?? auth.estado,
		numero: receipt.numero,
		autorizacion_numero: auth.numero,
		autorizacion_fecha: auth.fecha,
		autorizacion_mensajes: Array.isArray(auth.mensajes) && auth.mensajes.length ? auth.mensajes : undefined,
		url_formato_impresion: receipt.url_formato_impresion,
		url_documento_electronico: receipt.url_documento_electronico,
		es_valida: receipt.es_valida,
		wait_timed_out: receipt.wait_timed_out,
		warnings: receipt.warnings,
	};
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return out;
}

/**
 * What every receipt-returning operation outputs: the service's answer, then (when asked) the final
 * state merged in, validation warnings, and the Simplify view.
 */
export async function finish(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	answer: IDataObject,
	opts: { warnings?: string[]; canWait?: boolean } = {},
): Promise<IDataObject> {
	let out: IDataObject = { ...answer };
	if (opts.canWait && this.getNodeParameter('waitForFinalState', i, false)) {
		const id = String(answer.id ?? '');
		if (!id) {
			throw new NodeOperationError(this.getNode(), `[item ${i}] the service's answer carries no receipt id, so its final state cannot be awaited`, {
				itemIndex: i,
				description: 'The receipt may have been created: check it in the service before issuing it again.',
			});
		}
		const { doc, timedOut } = await waitForFinal.call(this, ctx, i, id);
		out = { ...out, ...doc };
		if (timedOut) out.wait_timed_out = true;
	}
	if (opts.warnings?.length) out.warnings = opts.warnings;
	return this.getNodeParameter('simplify', i, false) ? simplify(out) : out;
}
