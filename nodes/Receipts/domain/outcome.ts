import type { IDataObject } from 'n8n-workflow';

/**
 * Where a receipt stands in the issue process, read from any representation the service gives (the issue
 * answer, GET /edocs/{id}, GET of the kind, a notification).
 *
 * - Final, the process does not move by itself any more: AUTORIZADO, NO AUTORIZADO, DEVUELTO, ERROR
 *   (receipts service, States and transitions), and a signing failure: the receipt stays CREADO carrying a
 *   `firma` object whose `status` is 400 or that names an error (receipts service, Authentication and Errors).
 * - Anything else is still moving: CREADO, ENVIADO, RECIBIDO, and PRE-AUTORIZADO, a value the real service
 *   uses in `autorizacion.estado` before the final answer.
 * - Tax-authority messages of `tipo` ADVERTENCIA (used by the real service) are warnings, not failures.
 */

export const FINAL_STATES = ['AUTORIZADO', 'NO AUTORIZADO', 'DEVUELTO', 'ERROR'] as const;

export type Outcome = 'final' | 'signing-failed' | 'pending';

function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

/** The receipt's state: `estado`, else the authorization's state. Upper case; '' when neither is given. */
export function stateOf(doc: IDataObject): string {
	const raw = doc.estado ?? asObject(doc.autorizacion)?.estado;
	return typeof raw === 'string' ? raw.trim().toUpperCase() : '';
}

/**
 * The signing failure a receipt carries, in words (`error` or `result`, and `status`), or undefined. A
 * `firma` object that reports success (a status below 400 and no error) is not a failure.
 */
export function signingFailure(doc: IDataObject): string | undefined {
	const firma = asObject(doc.firma);
	if (!firma) return undefined;
	const status = Number(firma.status);
	const error = typeof firma.error === 'string' && firma.error.trim() ? firma.error.trim() : undefined;
	const result = typeof firma.result === 'string' ? firma.result.trim() : '';
	const failed = (Number.isFinite(status) && status >= 400) || error !== undefined || /^(error|fail)/i.test(result);
	if (!failed) return undefined;
	return `${error ?? (result || 'signing failed')}${Number.isFinite(status) ? ` (status ${status})` : ''}`;
}

export function outcomeOf(doc: IDataObject): Outcome {
	if (signingFailure(doc)) return 'signing-failed';
	const state = stateOf(doc);
	return (FINAL_STATES as readonly string[]).includes(state) ? 'final' : 'pending';
}

/** Every tax-authority message of a receipt: its own `mensajes`, the authorization's and the submission's. */
function messagesOf(doc: IDataObject): IDataObject[] {
	const lists = [doc.mensajes, asObject(doc.autorizacion)?.mensajes, asObject(doc.envio_sri)?.mensajes];
	return lists.flatMap((list) => (Array.isArray(list) ? list.filter((m): m is IDataObject => !!asObject(m)) : []));
}

/** A message as one line: `[ERROR 35] ARCHIVO NO CUMPLE ESTRUCTURA XML (detail)`. */
export function messageLine(m: IDataObject): string {
	const head = [m.tipo, m.identificador].filter((x) => x !== undefined && x !== null && x !== '').join(' ');
	const extra = m.informacion_adicional ? ` (${String(m.informacion_adicional)})` : '';
	return `${head ? `[${head}] ` : ''}${String(m.mensaje ?? '')}${extra}`;
}

/** Lines of the messages of `tipo` ADVERTENCIA: the receipt goes on, the user should read them. */
export function advisories(doc: IDataObject): string[] {
	return messagesOf(doc)
		.filter((m) => String(m.tipo ?? '').toUpperCase() === 'ADVERTENCIA')
		.map((m) => `SRI ${messageLine(m)}`);
}
