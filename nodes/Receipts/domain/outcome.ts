import type { IDataObject } from 'n8n-workflow';
import { splitAccessKey } from '../../shared/sri/accessKey';
import {
	explainedLine,
	explainMessage,
	isError,
	nextStepOf,
	rawLine,
	reasonLine,
	resendHow,
	sriCode,
	type MessageSource,
	type SriMessageOut,
} from '../../shared/sri/sriMessages';

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
 * - What a rejection means and what to do next: `explainOutcome`, from the SRI's codes (shared/sri/sriMessages.ts).
 */

const FINAL_STATES = ['AUTORIZADO', 'NO AUTORIZADO', 'DEVUELTO', 'ERROR'] as const;

type Outcome = 'final' | 'signing-failed' | 'pending';

function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
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
	const error =
		typeof firma.error === 'string' && firma.error.trim() ? firma.error.trim() : undefined;
	const result = typeof firma.result === 'string' ? firma.result.trim() : '';
	const failed =
		(Number.isFinite(status) && status >= 400) ||
		error !== undefined ||
		/^(error|fail)/i.test(result);
	if (!failed) return undefined;
	return `${error ?? (result || 'signing failed')}${Number.isFinite(status) ? ` (status ${status})` : ''}`;
}

export function outcomeOf(doc: IDataObject): Outcome {
	if (signingFailure(doc)) return 'signing-failed';
	const state = stateOf(doc);
	return (FINAL_STATES as readonly string[]).includes(state) ? 'final' : 'pending';
}

/** Every tax-authority message of a receipt, with where it was: its own `mensajes`, the authorization's, the submission's. */
function messagesOf(doc: IDataObject): Array<{ m: IDataObject; source: MessageSource }> {
	const lists: Array<[unknown, MessageSource]> = [
		[doc.mensajes, 'mensajes'],
		[asObject(doc.autorizacion)?.mensajes, 'autorizacion'],
		[asObject(doc.envio_sri)?.mensajes, 'envio_sri'],
	];
	const seen = new Set<string>();
	const out: Array<{ m: IDataObject; source: MessageSource }> = [];
	for (const [list, source] of lists) {
		if (!Array.isArray(list)) continue;
		for (const m of list) {
			const message = asObject(m);
			if (!message) continue;
			// The same message repeated in two places (the service copies some) is listed once.
			const key = rawLine(message);
			if (seen.has(key)) continue;
			seen.add(key);
			out.push({ m: message, source });
		}
	}
	return out;
}

/**
 * A message as one line, with what a code of the SRI's specification means and what to do
 * (shared/sri/sriMessages.ts): `[ERROR 43] CLAVE ACCESO REGISTRADA — The access key is already registered …`.
 */
export function messageLine(m: IDataObject): string {
	return explainedLine(m);
}

/** Lines of the messages of `tipo` ADVERTENCIA: the receipt goes on, the user should read them. */
export function advisories(doc: IDataObject): string[] {
	const id = idOf(doc);
	return messagesOf(doc)
		.filter(({ m }) => String(m.tipo ?? '').toUpperCase() === 'ADVERTENCIA')
		.map(({ m }) => `SRI ${explainedLine(m, id)}`);
}

/** States in which the receipt is not valid as it stands: the tax authority or the service refused it. */
const REJECTED_STATES = ['NO AUTORIZADO', 'DEVUELTO', 'ERROR'] as const;

function idOf(doc: IDataObject): string | undefined {
	return typeof doc.id === 'string' || typeof doc.id === 'number' ? String(doc.id) : undefined;
}

const GET = (id?: string) => `Document → Get${id ? ` (ID ${id})` : ''}`;

/** A rejected receipt is corrected and sent again under its access key and sequential (SRI, Ficha técnica, sección 11, note 1). */
const correctAndResend = (id?: string) =>
	`Correct what the SRI's messages say, then ${resendHow(id)}: a corrected receipt keeps its access key and sequential.`;

/** When a rejection comes without a message the specification explains: what the state itself says. */
const WITHOUT_MESSAGE: Record<
	(typeof REJECTED_STATES)[number],
	{ reason: string; nextStep: (id?: string) => string }
> = {
	'NO AUTORIZADO': {
		reason: 'The tax authority did not authorize the receipt (NO AUTORIZADO) and gave no message',
		nextStep: correctAndResend,
	},
	DEVUELTO: {
		reason: 'The tax authority returned the receipt (DEVUELTO) and gave no message',
		nextStep: correctAndResend,
	},
	ERROR: {
		reason: 'The issue process of the receipt ended in ERROR and gave no message',
		nextStep: (id) =>
			`Read the receipt again with ${GET(id)} before anything else, and do not issue it again; if it stays in ERROR, ask the receipts service.`,
	},
};

/**
 * What a bookkeeper reads of a receipt at a glance, the same with Simplify on or off (docs/receipts.md,
 * "Reading the outcome"):
 * - `rejected`: true when the receipt is not valid as it stands — NO AUTORIZADO, DEVUELTO, ERROR, or it could not be
 *   signed — false otherwise (authorized, or not decided yet);
 * - `reason`: why, for a rejected receipt: each refusing message of the SRI with what its code means (an unknown
 *   code keeps the SRI's own text);
 * - `next_step`: what to do — for a rejected receipt, from its codes (correct and reissue, look up the receipt
 *   already registered, issue with the next sequential, wait, …); for one not decided yet, that it is not a failure
 *   and how to follow it; absent for an authorized receipt;
 * - `sri_messages`: every message of the receipt, wherever the service put it (`envio_sri.mensajes` for a returned
 *   receipt, `autorizacion.mensajes` for a not authorized one, `mensajes`), with `source`, and `explanation` and
 *   `next_step` for a code of the specification.
 */
interface ReceiptOutcome extends IDataObject {
	rejected: boolean;
	reason?: string;
	next_step?: string;
	sri_messages: SriMessageOut[];
}

export function explainOutcome(doc: IDataObject): ReceiptOutcome {
	const id = idOf(doc);
	const listed = messagesOf(doc);
	const sri_messages = listed.map(({ m, source }) => explainMessage(m, source, id));
	const failure = signingFailure(doc);
	if (failure) {
		return {
			rejected: true,
			reason: `The receipts service could not sign the receipt: ${failure}`,
			next_step: `Correct the Certificate Password of the Receipts credential, then sign it again with Document → Authorize${id ? ` (ID ${id})` : ''}; do not issue it again.`,
			sri_messages,
		};
	}
	const state = stateOf(doc);
	const rejectedState = REJECTED_STATES.find((s) => s === state);
	if (rejectedState) {
		const errors = listed.filter(({ m }) => isError(m));
		const steps = errors
			.map(({ m }) => nextStepOf(m.identificador, id))
			.filter((s): s is string => !!s);
		if (!steps.length || errors.some(({ m }) => !sriCode(m.identificador)))
			steps.push(WITHOUT_MESSAGE[rejectedState].nextStep(id));
		return {
			rejected: true,
			reason: errors.length
				? errors.map(({ m }) => reasonLine(m)).join('; ')
				: WITHOUT_MESSAGE[rejectedState].reason,
			next_step: [...new Set(steps)].join(' '),
			sri_messages,
		};
	}
	if (outcomeOf(doc) === 'pending') {
		return {
			rejected: false,
			next_step:
				`Not decided by the tax authority yet (${state || 'no state given'}); this is not a failure. The receipt exists: do not issue it again. ` +
				`Read it again with ${GET(id)}; the SRI usually decides within seconds.` +
				(state === 'CREADO'
					? ` If it stays CREADO, it was not signed or not sent: sign and send it with Document → Authorize${id ? ` (ID ${id})` : ''}.`
					: ''),
			sri_messages,
		};
	}
	return { rejected: false, sri_messages };
}

/**
 * The receipt's document number, `001-002-000000148`: the service's `numero`, else built from the establishment,
 * emission point and sequential of the receipt, else read from its access key (series and sequential are part of
 * it, SRI access-key layout). Undefined when none of them is there.
 */
export function documentNumber(doc: IDataObject): string | undefined {
	if (typeof doc.numero === 'string' && doc.numero.trim()) return doc.numero.trim();
	const est = asObject(asObject(doc.emisor)?.establecimiento);
	const digits = (value: unknown, length: number) => {
		const t = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
		return /^\d+$/.test(t) && t.length <= length ? t.padStart(length, '0') : undefined;
	};
	const codigo = digits(est?.codigo, 3);
	const punto = digits(est?.punto_emision, 3);
	const secuencial = digits(doc.secuencial ?? doc.secuencia, 9);
	if (codigo && punto && secuencial) return `${codigo}-${punto}-${secuencial}`;
	if (typeof doc.clave_acceso === 'string' && /^\d{49}$/.test(doc.clave_acceso)) {
		const { series, sequential } = splitAccessKey(doc.clave_acceso);
		return `${series.slice(0, 3)}-${series.slice(3)}-${sequential}`;
	}
	return undefined;
}
