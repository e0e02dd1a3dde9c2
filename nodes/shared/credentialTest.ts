import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IHttpRequestOptions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import {
	exchange,
	failureIn,
	HttpFailure,
	isRedirect,
	megabytes,
	originOf,
	parseBody,
	type Sender,
} from './http';
import type { ApiPath } from './path';
import { clock } from './clock';
import { scrubText } from './redact';
import { trimEnd, withoutQuery } from './text';
import type { ServiceDefinition } from './transport';

/**
 * The credential Test buttons of the package, under the rules every other request follows (http.ts): the
 * credential goes only to its own origin (a redirect is refused, never followed), the whole test has a
 * wall-clock deadline, the answer a size cap, and the result says what failed in the service's own terms
 * (`ServiceDefinition.describeError`), without any secret.
 *
 * Why not the credential's `test.request`: n8n runs that request itself, outside this package's client — it
 * followed a redirect to another host with the X-Key, x-api-key or bearer token attached, read a 300 MB answer
 * whole and never ended an endless one. So each credential is tested by a node method (`methods.credentialTest`,
 * named by the node's `testedBy`), which n8n calls with a context whose only request helper is the legacy
 * `request` (n8n-core, CredentialTestContext, on 1.x and 2.x): `legacySender` adapts it to the package's one
 * request primitive. n8n finds such a method only for a package installed as users install it (a community
 * package), not for nodes loaded from a custom-extensions folder (n8n's loaders give only packages the
 * credential's list of nodes, where `testedBy` is looked up).
 */

/** How long a Test button may take, from the first byte sent to the last byte read (a token request included). */
const TEST_TIMEOUT_MS = 15_000;

/** The largest answer a Test button reads: the answers tested are a few kilobytes. */
const TEST_MAX_BYTES = 1024 * 1024;

/** How a credential proves itself. */
interface CredentialProbe {
	service: ServiceDefinition;
	/** A read that only a valid credential is allowed, below the Base URL. */
	path: ApiPath;
	query?: IDataObject;
	/**
	 * The headers that carry the credential, as its `authenticate` adds them (a credential with a token fetches
	 * one first, with `send` and before `deadline`).
	 */
	headers(
		credentials: ICredentialDataDecryptedObject,
		send: Sender,
		deadline: number,
	): Promise<Record<string, string>>;
}

/** The helper n8n gives a credential test (`this.helpers` of ICredentialTestFunctions). */
type LegacyHelpers = Pick<ICredentialTestFunctions['helpers'], 'request'>;

/**
 * The package's Sender on n8n's legacy request helper: the same exchange (no redirect followed, every status an
 * answer, the body as a stream read by `exchange` against its cap). The legacy helper takes no abort signal:
 * `exchange` stops waiting at the deadline and closes the answer's stream itself.
 */
function legacySender(helpers: LegacyHelpers): Sender {
	return async (options: IHttpRequestOptions) =>
		await helpers.request({
			method: options.method ?? 'GET',
			uri: options.url,
			qs: options.qs,
			headers: options.headers,
			body: options.body,
			json: options.json === true,
			followRedirect: options.disableFollowRedirect !== true,
			followAllRedirects: false,
			simple: options.ignoreHttpStatusErrors !== true,
			resolveWithFullResponse: options.returnFullResponse === true,
			useStream: options.encoding === 'stream',
			timeout: options.timeout,
		});
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** What an HttpFailure means for a Test button, in words that say what to check. */
function failureMessage(failure: HttpFailure, service: ServiceDefinition, request: string): string {
	const name = service.name;
	if (failure.details.token && failure.kind === 'status') {
		const described = service.describeError(failure.details.status ?? 0, failure.details.body, {
			token: true,
		});
		return `${described.message}. ${described.description ?? ''}`.trim();
	}
	const where = failure.details.token ? (failure.details.request ?? request) : request;
	switch (failure.kind) {
		case 'redirect':
			return `${name} answered ${where} with a redirect (HTTP ${failure.details.status ?? '?'}) to ${withoutQuery(failure.details.location ?? 'no address')}, which was not followed: the ${service.credentialLabel} is never sent to another address. Check the Base URL: it must be the service's own address (for example https:// instead of http://).`;
		case 'deadline':
			return `${name} did not answer ${where} within ${Math.round(TEST_TIMEOUT_MS / 1000)} s. Check the Base URL and that the service is up.`;
		case 'too-large':
			return `${name}: the answer to ${where} is larger than ${megabytes(TEST_MAX_BYTES)} (${failure.details.announced ? `it announced ${megabytes(failure.details.bytes ?? 0)}` : 'it did not end there'}), which is not what the service answers. Check the Base URL.`;
		case 'network':
			return `${name} could not be reached (${failure.details.code ?? 'network error'}): ${where} ${failure.details.status === undefined ? 'failed before an answer arrived' : failure.message}. Check the Base URL and that the service is up.`;
		case 'malformed':
			return `${name} answered ${where}, but ${failure.message}. Check the Base URL: it must be the service's own address.`;
		default:
			return `${name}: ${where} failed (${failure.message}).`;
	}
}

/**
 * Tests `credential` with `probe`: OK when the service accepts it, else an Error whose message says what failed
 * and what to check. Never throws; no secret of the credential in any form in the message.
 */
export async function testCredential(
	helpers: LegacyHelpers,
	credential: ICredentialsDecrypted,
	probe: CredentialProbe,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const { service } = probe;
	const secrets = service.secretFields
		.map((field) => data[field])
		.filter((v): v is string => typeof v === 'string' && v !== '');
	const result = await probeOnce(helpers, data, probe, secrets);
	return { ...result, message: scrubText(result.message, secrets) };
}

async function probeOnce(
	helpers: LegacyHelpers,
	data: ICredentialDataDecryptedObject,
	probe: CredentialProbe,
	secrets: string[],
): Promise<INodeCredentialTestResult> {
	const { service } = probe;
	const refused = service.preflight?.(data);
	if (refused) return failed(refused);
	const base = trimEnd((service.baseUrl?.(data) ?? '').trim(), '/');
	if (!originOf(base))
		return failed(
			`The Base URL of the ${service.name} credential is not an http(s) address: enter the service's address, starting with https:// (or http://).`,
		);
	const request = `GET ${probe.path.text}`;
	const send = legacySender(helpers);
	const deadline = clock.now() + TEST_TIMEOUT_MS;
	try {
		const headers = await probe.headers(data, send, deadline);
		for (const value of Object.values(headers)) secrets.push(value.replace(/^Bearer\s+/i, ''));
		const answer = await exchange(
			send,
			{
				method: 'GET',
				url: `${base}${probe.path.text}`,
				qs: probe.query,
				headers: { Accept: 'application/json', ...headers },
			},
			{ deadline, maxBytes: TEST_MAX_BYTES, request },
		);
		if (isRedirect(answer.status)) {
			let location = answer.headers.location ?? '';
			try {
				location = new URL(location, `${base}${probe.path.text}`).href;
			} catch {
				// keep it as it came
			}
			throw new HttpFailure('redirect', 'redirect', { status: answer.status, location });
		}
		const body = parseBody(answer.body);
		if (answer.status >= 400) {
			const described = service.describeError(answer.status, body, { token: false });
			const detail =
				answer.status >= 500
					? 'The service had a problem: try again later.'
					: (described.description ?? '');
			return failed(`${described.message} (${request}, HTTP ${answer.status}). ${detail}`.trim());
		}
		if (!body || typeof body !== 'object') {
			const type = answer.headers['content-type'];
			throw new HttpFailure(
				'malformed',
				`the answer is not JSON (${type ? `content-type ${type}, ` : ''}${answer.body.length ? `starting with ${JSON.stringify(answer.body.toString('utf8').trimStart().slice(0, 20))}` : 'empty'})`,
				{ status: answer.status },
			);
		}
		return {
			status: 'OK',
			message: `Connection successful: ${service.name} accepted the ${service.credentialLabel}.`,
		};
	} catch (error) {
		const failure = failureIn(error);
		if (failure) return failed(failureMessage(failure, service, request));
		return failed(
			`${service.name}: the test failed (${error instanceof Error ? error.message : String(error)}).`,
		);
	}
}
