// Drives the real n8n editor in headless Chromium, the way a person uses it: sign in, open a new workflow,
// find a node in the nodes panel by what a user types, pick an action, fill the form, run the step and read
// the output panel. Debian's `chromium` package is the browser (no browser download: playwright-core only
// drives it). Selectors are n8n's own `data-test-id` attributes, the ones n8n's Playwright suite uses.
import { chromium, selectors } from 'playwright-core';
import { DEV_OWNER } from '../../scripts/n8n/boot.mjs';
import { ownerApiKey } from '../../scripts/n8n/sandbox.mjs';

/** Where Debian's chromium package puts the browser; CHROMIUM_PATH overrides it. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps trying to reach Google's servers, which a closed
// network refuses; --no-sandbox because CI runs as root.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

selectors.setTestIdAttribute('data-test-id');

/**
 * The page's clipboard text. Runs in the page (page.evaluate), where `navigator` is the browser's; this file is
 * type-checked with Node's types only, which do not declare it, hence the cast of globalThis.
 * @returns {Promise<string>}
 */
const readClipboard = () =>
	/** @type {{ navigator: { clipboard: { readText(): Promise<string> } } }} */ (
		/** @type {unknown} */ (globalThis)
	).navigator.clipboard.readText();
/** Empties the clipboard (in the page, like readClipboard). */
const clearClipboard = () =>
	/** @type {{ navigator: { clipboard: { writeText(text: string): Promise<void> } } }} */ (
		/** @type {unknown} */ (globalThis)
	).navigator.clipboard.writeText('');

/** Puts `text` on the clipboard (in the page, like readClipboard). */
const writeClipboard = (/** @type {string} */ text) =>
	/** @type {{ navigator: { clipboard: { writeText(text: string): Promise<void> } } }} */ (
		/** @type {unknown} */ (globalThis)
	).navigator.clipboard.writeText(text);

export async function launchBrowser() {
	return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * One signed-in editor tab.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the n8n base URL
 * @param {{ email: string, password: string }} owner
 */
export async function openEditor(browser, url, owner) {
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	// The output panel's "Copy to Clipboard" is how a person takes the JSON out; the test reads it the same way.
	await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	await page.goto(`${url}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(owner.email);
	await page.getByTestId('password').locator('input').fill(owner.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL(/\/(home|workflows)/);
	return new Editor(page, url);
}

export class Editor {
	/** @param {import('playwright-core').Page} page */
	constructor(page, url) {
		this.page = page;
		this.url = url;
	}

	async newWorkflow() {
		await this.page.goto(`${this.url}/workflow/new`);
		await this.page.getByTestId('canvas-add-button').waitFor();
	}

	/**
	 * The entries the nodes panel lists for `search`, as shown (name and description): read once the list has
	 * followed the search box (it filters as one types) and stayed the same for a moment.
	 */
	async searchNodes(search) {
		const items = this.page.getByTestId('node-creator').getByTestId('item-iterator-item');
		const before = (await items.allInnerTexts()).join('\n');
		await this.page.getByTestId('node-creator-search-bar').fill(search);
		let last = before;
		let stableSince = Date.now();
		for (const until = Date.now() + 10_000; Date.now() < until; ) {
			await this.page.waitForTimeout(100);
			const now = (await items.allInnerTexts()).join('\n');
			if (now !== last) [last, stableSince] = [now, Date.now()];
			else if (now !== before && Date.now() - stableSince >= 400) break;
		}
		return await items.allInnerTexts();
	}

	/** Adds the first node of an empty workflow: opens the nodes panel, searches, picks the entry. */
	async addTrigger(search, entry) {
		await this.page.getByTestId('canvas-add-button').click();
		await this.pick(search, entry);
		await this.closeNodeView();
	}

	/**
	 * Adds a node after the last one: searches the nodes panel for `search` (what a user types), opens `entry`
	 * and picks `action` (e.g. "Issue an invoice"). The node's form opens.
	 */
	async addAction(search, entry, action) {
		await this.page.getByTestId('node-creator-plus-button').click();
		await this.pick(search, entry);
		await this.page
			.getByTestId('node-creator')
			.getByTestId('item-iterator-item')
			.filter({ hasText: action })
			.first()
			.click();
		await this.page.getByTestId('ndv').waitFor();
	}

	async pick(search, entry) {
		await this.searchNodes(search);
		await this.page
			.getByTestId('node-creator')
			.getByTestId('item-iterator-item')
			.filter({ hasText: entry })
			.first()
			.click();
	}

	async closeNodeView() {
		await this.page.keyboard.press('Escape');
		const ndv = this.page.getByTestId('ndv');
		const closed = await ndv
			.waitFor({ state: 'hidden', timeout: 2_000 })
			.then(() => true)
			.catch(() => false);
		if (closed) return;
		// An open dropdown of the form (e.g. Add Option, focused after the last field) takes the first Escape: a
		// person then clicks outside the form, on the backdrop.
		await this.page.keyboard.press('Escape');
		if (await ndv.isVisible())
			await this.page.getByTestId('ndv-backdrop').click({ position: { x: 5, y: 5 } });
		await ndv.waitFor({ state: 'hidden' }).catch(() => undefined);
	}

	/** The form of the open node (its parameters). */
	get node() {
		return new Form(this.page, this.page.getByTestId('ndv'));
	}

	/**
	 * Opens the node's credential (the pencil next to it), lets `fill` fill its form, saves and closes it, as a
	 * person entering their company's data once does.
	 * @param {(form: Form) => Promise<void>} fill
	 */
	async editCredential(fill) {
		await this.page.getByTestId('ndv').getByTestId('credential-edit-button').click();
		const modal = this.page.getByTestId('editCredential-modal');
		await modal.getByTestId('credential-edit-dialog').waitFor();
		await fill(new Form(this.page, modal));
		const save = modal.getByTestId('credential-save-button');
		const saved = this.page.waitForResponse(
			(r) =>
				/\/rest\/credentials\/[^/]+$/.test(new URL(r.url()).pathname) &&
				r.request().method() === 'PATCH',
		);
		await save.click();
		const answer = await saved;
		if (!answer.ok()) throw new Error(`saving the credential answered ${answer.status()}`);
		// The dialog's own close button (Escape would close the node's form behind it too).
		await modal.locator('.el-dialog__headerbtn').click();
		await modal.waitFor({ state: 'hidden' });
	}

	/**
	 * Runs the open node (Execute step) and returns what the output panel then shows, as text. Until the editor
	 * shows the new run, the panel still shows the previous run's items: the editor fetches a run
	 * (GET /rest/executions/<id>) once it has ended, so the panel is read after that answer.
	 */
	async executeStep() {
		const ended = this.page.waitForResponse(
			(r) =>
				r.request().method() === 'GET' &&
				/\/rest\/executions\/\d+$/.test(new URL(r.url()).pathname),
			{ timeout: 60_000 },
		);
		await this.page.getByTestId('ndv').getByTestId('node-execute-button').first().click();
		await ended;
		const panel = this.page.getByTestId('output-panel');
		await panel
			.getByText(/\d+ items?|error/i)
			.first()
			.waitFor({ timeout: 60_000 });
		return await panel.innerText();
	}

	/**
	 * Runs the whole workflow from the canvas (*Execute workflow*): every node runs again, a file is read again.
	 * Waits until the editor has fetched the ended run (see executeStep).
	 */
	async executeWorkflow() {
		const ended = this.page.waitForResponse(
			(r) =>
				r.request().method() === 'GET' &&
				/\/rest\/executions\/\d+$/.test(new URL(r.url()).pathname),
			{ timeout: 60_000 },
		);
		await this.page.getByTestId('execute-workflow-button').first().click();
		await ended;
	}

	/**
	 * Shows one output of a node with several (Receipts version 3: *Authorized*, *Not Authorized*): the output
	 * panel's branch tab named `name` ("Not Authorized Branch (1 item)"). Returns what the panel then shows.
	 */
	async outputBranch(name) {
		const panel = this.page.getByTestId('output-panel');
		await panel
			.getByText(new RegExp(`^${name} Branch`))
			.first()
			.click();
		await panel
			.getByText(/\d+ items?|No output data/i)
			.first()
			.waitFor({ timeout: 10_000 });
		return await panel.innerText();
	}

	/** Opens a saved workflow by its ID and waits for its nodes on the canvas. */
	async openWorkflow(id) {
		await this.page.goto(`${this.url}/workflow/${id}`);
		await this.page.getByTestId('canvas-node').first().waitFor();
	}

	/**
	 * Runs the open workflow from the trigger node named `name` (the bolt button a trigger shows on the canvas when
	 * the pointer is over it), as a person does when a workflow has several triggers; returns the ended run as the
	 * editor fetched it (GET /rest/executions/<id>: its `status`, `finished`…).
	 */
	async runFromTrigger(name) {
		const ended = this.page.waitForResponse(
			(r) =>
				r.request().method() === 'GET' &&
				/\/rest\/executions\/\d+$/.test(new URL(r.url()).pathname),
			{ timeout: 120_000 },
		);
		await this.page.getByTestId('canvas-node').filter({ hasText: name }).first().hover();
		await this.page.getByTestId(`execute-workflow-button-${name}`).click();
		const answer = await ended;
		return /** @type {{ data: Record<string, unknown> }} */ (await answer.json()).data;
	}

	/** Opens the form of the canvas node whose box shows `text` (its name or subtitle). */
	async openNode(text) {
		await this.page.getByTestId('canvas-node').filter({ hasText: text }).last().dblclick();
		await this.page.getByTestId('ndv').waitFor();
	}

	/**
	 * Switches the output panel to its JSON view and returns the items it shows, parsed, taken with the panel's
	 * own "Copy to Clipboard" button (the view itself only renders the lines on screen).
	 */
	async outputJson() {
		const panel = this.page.getByTestId('output-panel');
		await panel.getByTestId('radio-button-json').click();
		// The copy is written asynchronously: read only what this click put there, not the previous run's copy
		// (seen once in CI: the second run's panel said DEVUELTO while the clipboard still held the first run).
		await this.page.evaluate(clearClipboard);
		await panel.getByTestId('ndv-json-actions').getByTitle('Copy to Clipboard').click();
		let text = '';
		for (const started = Date.now(); !text && Date.now() - started < 10_000; ) {
			text = await this.page.evaluate(readClipboard);
			if (!text) await this.page.waitForTimeout(50);
		}
		return JSON.parse(text);
	}

	async screenshot(path) {
		await this.page.screenshot({ path, fullPage: true });
	}
}

/** The parameters of a node or a credential, filled as a person fills them. */
export class Form {
	/**
	 * @param {import('playwright-core').Page} page
	 * @param {import('playwright-core').Locator} root
	 */
	constructor(page, root) {
		this.page = page;
		this.root = root;
	}

	/**
	 * A parameter's input, by the parameter's name; `within` narrows it to a fixed collection
	 * (`{ collection: 'lineItems', entry: 1 }`: the second entry).
	 * @param {string} name
	 * @param {{ collection: string, entry?: number }} [within]
	 */
	param(name, within) {
		const scope = within
			? this.root.getByTestId(`fixed-collection-${within.collection}`)
			: this.root;
		const inputs = scope.getByTestId(`parameter-input-${name}`);
		return within?.entry === undefined ? inputs.first() : inputs.nth(within.entry);
	}

	/** Types `value` into a text or number parameter, as a person would (click, type, leave the field). */
	async fill(name, value, within) {
		const input = this.param(name, within).locator('input, textarea').first();
		await input.click();
		await input.fill(String(value));
		await input.press('Tab');
	}

	/**
	 * Picks the option shown as `optionText` in a dropdown parameter; a RegExp for an option that shows its
	 * description under its name (its accessible name is both).
	 * @param {string} name
	 * @param {string | RegExp} optionText
	 * @param {{ collection: string, entry?: number }} [within]
	 */
	async choose(name, optionText, within) {
		await this.param(name, within).click();
		const option =
			typeof optionText === 'string'
				? this.page.getByRole('option', { name: optionText, exact: true })
				: this.page.getByRole('option', { name: optionText });
		await option.first().click();
	}

	/** What a dropdown parameter shows as chosen. */
	async shown(name, within) {
		return await this.param(name, within).locator('input').first().inputValue();
	}

	/**
	 * Switches a parameter from Fixed to Expression, as a person does: hover the parameter, click *Expression* in
	 * the switch that appears above it.
	 */
	async toExpression(name) {
		const item = this.root
			.getByTestId('parameter-item')
			.filter({ has: this.page.getByTestId(`parameter-input-${name}`) })
			.first();
		await item.hover();
		await item.getByTestId('radio-button-expression').click();
	}

	/**
	 * Pastes `text` into a parameter shown as an editor (JSON, expression, code), replacing what it holds, as a
	 * person pastes a template: select all, then paste from the clipboard, then click the form's *Parameters* tab.
	 */
	async paste(name, text) {
		await this.page.evaluate(writeClipboard, text);
		const editor = this.param(name).locator('.cm-content').first();
		await editor.click();
		await this.page.keyboard.press('ControlOrMeta+A');
		await this.page.keyboard.press('ControlOrMeta+V');
		// Leave the editor, as a person clicking elsewhere does: the form keeps the value once the editor loses focus
		// (run before that, the node still had the old one).
		await this.root.getByText('Parameters', { exact: true }).first().click();
		await this.page.waitForTimeout(500);
	}

	/** Adds the option shown as `label` to the form's Options (the collection's "Add Option" menu). */
	async addOption(label) {
		await this.root.getByTestId('collection-parameter-add').first().click();
		await this.page
			.getByTestId('collection-parameter-option')
			.filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) })
			.first()
			.click();
	}

	/** Adds one entry to a fixed collection (e.g. "Add Item") and returns how many it has now. */
	async addEntry(collection) {
		const box = this.root.getByTestId(`fixed-collection-${collection}`);
		await box.getByTestId('fixed-collection-add').click();
		return await box.getByTestId('fixed-collection-delete').count();
	}
}

/**
 * Fills the Receipts node's invoice form (Fields mode) with the two-item invoice of docs/receipts.md, *For
 * bookkeepers*: the buyer Juan Pérez, three hours of accounting service at 40.00 and a book at 12.50 sold at 0 %,
 * and one means of payment (cash, the form's default). Returns the entry counts after each item was added, and
 * the two items' places in the form.
 * @param {Form} form
 */
export async function fillTwoItemInvoice(form) {
	await form.addEntry('comprador');
	await form.fill('identificacion', '1710034065', { collection: 'comprador' });
	await form.fill('razon_social', 'Juan Pérez', { collection: 'comprador' });
	const counts = [await form.addEntry('lineItems'), await form.addEntry('lineItems')];
	const first = { collection: 'lineItems', entry: 0 };
	const second = { collection: 'lineItems', entry: 1 };
	await form.fill('descripcion', 'Servicio contable', first);
	await form.fill('cantidad', 3, first);
	await form.fill('precio_unitario', 40, first);
	await form.fill('descripcion', 'Libro', second);
	await form.fill('cantidad', 1, second);
	await form.fill('precio_unitario', 12.5, second);
	await form.choose('tax_codigo_porcentaje', 'IVA 0% (0)', second);
	await form.addEntry('pagos');
	return { counts, first, second };
}

/**
 * The sandbox `sb` (scripts/n8n/sandbox.mjs, prepared) started as `npm run dev` starts it, its owner's API key made,
 * and the editor open in Chromium, signed in as the owner; `stop` closes the browser, n8n and the sandbox.
 */
export async function startEditor(sb) {
	const n8n = await sb.start();
	await ownerApiKey(n8n.url);
	const browser = await launchBrowser();
	const editor = await openEditor(browser, n8n.url, DEV_OWNER);
	const stop = async () => {
		await browser.close();
		await n8n.stop();
		await sb.stop();
	};
	return { n8n, browser, editor, stop };
}
