/** A seeded prompt (the columns of a prompt row that the seed fills). */
export interface SeedPrompt {
  key: string;
  name: string;
  prompt: string;
  remove_exist_widget: boolean;
  use_serp_context: boolean;
  use_web_research: boolean;
  search_web: string[];
  search_model: string[];
}

/** Prompts every eshop sees (eshops can have their own besides). */
export const SEED_PROMPTS: SeedPrompt[] = [
  {
    key: 'product-description',
    name: 'Product description',
    prompt:
      'Write an accurate, persuasive product description from the product data. Use only facts from the data; do not invent specifications.',
    remove_exist_widget: true,
    use_serp_context: false,
    use_web_research: false,
    search_web: [],
    search_model: [],
  },
  {
    key: 'product-benefits',
    name: 'Benefits and FAQ',
    prompt:
      'Turn the product data into clear customer benefits and answers to the questions buyers ask most. Keep every claim backed by the data.',
    remove_exist_widget: false,
    use_serp_context: true,
    use_web_research: false,
    search_web: [],
    search_model: [],
  },
  {
    key: 'category-guide',
    name: 'Category buying guide',
    prompt: 'Write a short buying guide for the category: what to look for, who it suits, how to choose.',
    remove_exist_widget: true,
    use_serp_context: false,
    use_web_research: true,
    search_web: [],
    search_model: [],
  },
];
