import type { RouterContext } from '../shared/router';
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { addFacts, type FailureFacts } from '../shared/errors';
import { path } from '../shared/path';
import type { RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage, fieldErrorLines } from '../shared/failures';
import { ServiceClient } from '../shared/transport';

/**
 * Partners service: base URL from the credential, a bearer token its `preAuthentication` fetches (token.ts);
 * errors as the spec shapes them (Error, ValidationError, token failure). An update (PATCH) replaces the given
 * fields, so sending it twice leaves the same result: the one write that is safe to repeat.
 */
export const partnersService: ServiceDefinition = {
	name: 'Partners',
	credentialType: 'partnersApi',
	credentialLabel: 'access token',
	// The credential's preAuthentication fills it; a 401 fetches one new token for all requests in flight.
	tokenField: 'accessToken',
	secretFields: ['clientSecret'],
	repeatable: (method) => method === 'PATCH',
	baseUrl: (credentials) => String(credentials.baseUrl ?? ''),
	describeError(status, body, answer) {
		const b = (body && typeof body === 'object' ? body : {}) as IDataObject;
		const said = bodyMessage(body);
		const code = typeof b.code === 'string' && b.code ? ` [${b.code}]` : '';
		// The token request refused (partners service, token failure {error, error_description}), whatever its body.
		if (
			status === 401 &&
			(answer?.token || b.error !== undefined || b.error_description !== undefined)
		) {
			return {
				message: `Partners refused the credential: ${said ?? 'invalid client'}`,
				description:
					'Check the Client ID and Client Secret of the Partners credential, and the Sandbox switch (sandbox and production keys differ).',
			};
		}
		if (status === 401) {
			return {
				message: `Partners: not authenticated${said ? ` (${said})` : ''}${code}`,
				description:
					'The token was refused even after fetching a new one. Check the Partners credential.',
			};
		}
		if (status === 404) {
			return {
				message: `Partners: ${said ?? 'not found'}${code}`,
				description:
					'Check the ID: it may belong to the other mode (sandbox/production) or have been deleted.',
			};
		}
		if (status === 422) {
			const lines = fieldErrorLines(b.errors);
			return {
				message: `Partners rejected the data: ${lines[0] ?? said ?? 'validation failed'}${code}`,
				description: `${said ?? 'Validation failed'}${lines.length ? `:\n- ${lines.join('\n- ')}` : ''}\nCorrect the fields listed and run again.`,
			};
		}
		if (status === 429)
			return {
				message: `Partners: too many requests${code}`,
				description:
					'The service is rate limiting. Lower "Parallel Requests" or wait before running again.',
			};
		return {
			message: `Partners answered ${status}: ${said ?? 'unexpected error'}${code}`,
			description:
				status >= 500
					? 'The service had a problem; reads were retried. Try again later.'
					: undefined,
		};
	},
};

export interface PartnersContext extends RouterContext {
	api: ServiceClient;
}

export const partnersClient = (ctx: RequestContext) => new ServiceClient(ctx, partnersService);

/** Answer of `GET /v1/products`: one page of plans and where it sits. */
interface ProductPage {
	data?: { products?: IDataObject[]; pagination?: { currentPage?: number; lastPage?: number } };
}

/** A plan as a picker shows it: its name and status. */
export function planOption(p: IDataObject): INodePropertyOptions {
	return {
		name: `${String(p.name)}${p.status ? ` (${String(p.status)})` : ''}`,
		value: String(p.uuid),
	};
}

/** The most pages of plans read in one go (15 plans a page: 15,000 plans). */
export const MAX_PAGES = 1000;

interface PlanPage {
	products: IDataObject[];
	/** The next page to ask for, or undefined after the last one. */
	next?: number;
}

function pagingError(
	client: ServiceClient,
	itemIndex: number | undefined,
	message: string,
	description: string,
	paging: NonNullable<FailureFacts['paging']>,
): NodeOperationError {
	return addFacts(new NodeOperationError(client.node, message, { itemIndex, description }), {
		paging,
	});
}

/**
 * Page `page` of the plans (`GET /v1/products?page=`, with `search` when given). The service says which page
 * it answered (`pagination.currentPage`): a page that is not the one asked is an error, because a service that
 * ignores `page` would otherwise be asked for page 2, 3, … forever (measured: 63,575 requests in two minutes).
 */
export async function readPlanPage(
	client: ServiceClient,
	page: number,
	search: string,
	itemIndex?: number,
): Promise<PlanPage> {
	const query: IDataObject = { page };
	if (search) query.search = search;
	const answer = await client.read<ProductPage>(path`/v1/products`, itemIndex, { query });
	const products = answer.data?.products ?? [];
	const pagination = answer.data?.pagination ?? {};
	const currentPage = Number(pagination.currentPage ?? page);
	const lastPage = Number(pagination.lastPage ?? page);
	if (currentPage !== page) {
		throw pagingError(
			client,
			itemIndex,
			`Partners answered page ${currentPage} when page ${page} was asked: the plan list does not advance`,
			'Reading stopped here so as not to ask for the same plans again and again (the service seems to ignore the page number). Use Search or a Limit to need fewer pages, or try again later.',
			{ asked: page, answered: currentPage, reason: 'not-advancing' },
		);
	}
	return { products, next: products.length > 0 && currentPage < lastPage ? page + 1 : undefined };
}

/**
 * Every page of the plans from the first, until `enough(plans read)` says stop or the last page: a page whose
 * plans are those of the page before (the service repeats itself) or more than MAX_PAGES pages are an error.
 * `kept` is told each page's plans as they are kept (it may stop the reading: shared/budget.ts).
 */
export async function readPlans(
	client: ServiceClient,
	search: string,
	itemIndex: number | undefined,
	enough: (count: number) => boolean = () => false,
	kept: (plans: IDataObject[]) => void = () => undefined,
): Promise<IDataObject[]> {
	const plans: IDataObject[] = [];
	let before = '';
	for (let page: number | undefined = 1; page !== undefined && !enough(plans.length); ) {
		const read: PlanPage = await readPlanPage(client, page, search, itemIndex);
		const signature = JSON.stringify(read.products.map((p) => p.uuid ?? p));
		if (read.products.length > 0 && signature === before) {
			throw pagingError(
				client,
				itemIndex,
				`Partners answered page ${page} with the same plans as page ${page - 1}: the plan list does not advance`,
				'Reading stopped here so as not to read the same plans again and again. Use Search or a Limit to need fewer pages, or try again later.',
				{ asked: page, reason: 'repeated' },
			);
		}
		before = signature;
		kept(read.products);
		plans.push(...read.products);
		if (read.next !== undefined && read.next > MAX_PAGES && !enough(plans.length)) {
			throw pagingError(
				client,
				itemIndex,
				`Partners: more than ${MAX_PAGES} pages of plans`,
				`Reading stops after ${MAX_PAGES} pages (${plans.length} plans). Use Search or a Limit to read fewer.`,
				{ asked: page, reason: 'cap' },
			);
		}
		page = read.next;
	}
	return plans;
}

/** Lists of the client and subscription endpoints have no documented shape: take the first list found. */
export function listIn(body: unknown, keys: string[] = []): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	const b = (body ?? {}) as IDataObject;
	if (Array.isArray(b.data)) return b.data as IDataObject[];
	const data = (b.data ?? {}) as IDataObject;
	for (const key of keys) {
		if (Array.isArray(data[key])) return data[key] as IDataObject[];
		if (Array.isArray(b[key])) return b[key] as IDataObject[];
	}
	return [b];
}

/** `{response, data: X}` → X; any other shape is passed through whole. */
export function unwrap(body: unknown): IDataObject {
	const b = (body ?? {}) as IDataObject;
	return b.data && typeof b.data === 'object' && !Array.isArray(b.data)
		? (b.data as IDataObject)
		: b;
}
