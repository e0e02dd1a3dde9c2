import type { IExecuteFunctions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import { factsOf, itemError } from '../../../shared/errors';
import { ask, type PublicServiceContext, type SoapQuestion } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import {
	authQuestion,
	bulkAddresses,
	SAT_BULK,
	TOKEN_MARGIN_MS,
	type AuthAnswer,
	type BulkAddresses,
	type CfdiKind,
	type Status,
} from '../../domain/bulk/service';
import { INVALID_USER } from '../../domain/bulk/codes';
import { efirmaProblem, efirmaSecrets, readEfirma, type Efirma } from '../../domain/efirma';

/**
 * One run's session with the SAT's bulk download service: the e.firma read once from the credential (its key and
 * password handed to the client's scrubber before anything else), and one token per authentication address,
 * shared by every item of the run — asked for when the first item needs it, used until 30 seconds before the
 * Expires of its answer (the service's tokens live 5 minutes), asked for again then, and once more when the SAT
 * refuses it (`300`, or a security fault) before anything was done. Every call carries the token and is signed
 * with the e.firma (domain/bulk).
 */

const CREDENTIAL = 'satEfirmaApi';
const CREDENTIAL_NAME = 'SAT e.firma (FIEL)';

type Opened = { session: BulkSession } | { field: string; problem: string; fix: string };

const OPENED = new WeakMap<PublicServiceContext, Promise<Opened>>();

class BulkSession {
	/** Tokens (or the failure of getting one) by authentication address. */
	private readonly tokens = new Map<string, Promise<AuthAnswer | { failed: Error }>>();

	constructor(
		private readonly fn: IExecuteFunctions,
		private readonly ctx: PublicServiceContext,
		readonly efirma: Efirma,
	) {}

	/** The addresses of item `i` (Options → Service Address, CFDI Kind), or its error: nothing is sent. */
	addresses(i: number): BulkAddresses {
		const kind: CfdiKind =
			this.fn.getNodeParameter('cfdiKind', i, 'cfdi') === 'retenciones' ? 'retenciones' : 'cfdi';
		const where = bulkAddresses(this.fn.getNodeParameter('options.serviceAddress', i, ''), kind);
		if ('problem' in where) {
			new Checker()
				.fail('Options → Service Address', where.problem)
				.throwIfFailed(this.fn.getNode(), i, 'Nothing was sent to the SAT.');
		}
		return where as BulkAddresses;
	}

	/** A live token for `auth`, not `refused` (a token the SAT just refused): the run's, or a new one. */
	private async token(auth: string, i: number, refused?: string): Promise<string> {
		for (;;) {
			const held = this.tokens.get(auth);
			if (!held) break;
			const got = await held;
			if (this.tokens.get(auth) !== held) continue; // another item replaced it meanwhile
			if ('failed' in got) {
				const error = got.failed as Error & { description?: string | null };
				throw itemError(this.fn.getNode(), i, error.message, error.description ?? '');
			}
			if (got.token !== refused && clock.now() < got.expires - TOKEN_MARGIN_MS) return got.token;
			break;
		}
		const asking = ask(this.ctx, SAT_BULK, authQuestion(this.efirma, auth, clock.now()), i).then(
			(answer) => {
				// The token as sent and as a header may carry it decoded; a token that is not valid %-encoding is
				// kept as it is (decodeURIComponent would throw, and leave the token unregistered as a secret).
				let decoded = answer.token;
				try {
					decoded = decodeURIComponent(answer.token);
				} catch {
					// kept as it is
				}
				this.ctx.api.keepSecret(answer.token, decoded);
				return answer;
			},
			(error: Error) => ({ failed: error }),
		);
		this.tokens.set(auth, asking);
		const got = await asking;
		if ('failed' in got) throw got.failed;
		return got.token;
	}

	/**
	 * Asks `question` (built with a token) at the run's token for `addresses`: once, and once more with a new
	 * token when the SAT refused the token (`300`, or a security fault), as it refuses before doing anything.
	 */
	async call<T extends Status>(
		addresses: BulkAddresses,
		i: number,
		question: (token: string) => SoapQuestion<T>,
	): Promise<T> {
		const token = await this.token(addresses.auth, i);
		const first = await this.attempt(question(token), i);
		if ('answer' in first) return first.answer;
		const fresh = await this.token(addresses.auth, i, token);
		const second = await this.attempt(question(fresh), i);
		if ('answer' in second) return second.answer;
		// Refused again: the SAT's answer (300) is the operation's to word; a fault is the client's error.
		if ('refusal' in second) return second.refusal;
		throw second.fault;
	}

	/** One call: its answer, or the refusal of its token (an answer 300, or a fault that says so). */
	private async attempt<T extends Status>(
		question: SoapQuestion<T>,
		i: number,
	): Promise<{ answer: T } | { refusal: T } | { fault: unknown }> {
		let failure: unknown;
		let answer: T | undefined;
		try {
			answer = await ask(this.ctx, SAT_BULK, question, i);
		} catch (error) {
			failure = error;
		}
		if (answer) return answer.code === INVALID_USER ? { refusal: answer } : { answer };
		const said = String(factsOf(failure).said ?? '');
		if (factsOf(failure).status === 401 || /security|authenticat/i.test(said))
			return { fault: failure };
		throw failure;
	}
}

/**
 * The run's session, the e.firma read from the credential once per run; for item `i`, the credential's problem
 * as that item's error (nothing is sent).
 */
export async function bulkSession(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<BulkSession> {
	let opened = OPENED.get(ctx);
	if (!opened) {
		opened = (async (): Promise<Opened> => {
			const data = await this.getCredentials(CREDENTIAL);
			ctx.api.keepSecret(...efirmaSecrets(data));
			const read = readEfirma(data, clock.now());
			return efirmaProblem(read) ?? { session: new BulkSession(this, ctx, read as Efirma) };
		})();
		OPENED.set(ctx, opened);
	}
	const got = await opened;
	if ('session' in got) return got.session;
	throw itemError(
		this.getNode(),
		i,
		`${CREDENTIAL_NAME} credential: ${got.field} ${got.problem}`,
		`${got.fix} Nothing was sent to the SAT.`,
	);
}
