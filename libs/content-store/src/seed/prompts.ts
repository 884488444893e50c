/** Prompts every eshop sees (eshops can have their own besides). */
export const SEED_PROMPTS = [
  {
    key: 'product-description',
    name: 'Product description',
    prompt:
      'Write an accurate, persuasive product description from the product data. Use only facts from the data; do not invent specifications.',
    remove_exist_widget: true,
    use_serp_context: false,
    use_web_research: false,
    search_web: [] as string[],
    search_model: [] as string[],
  },
  {
    key: 'product-benefits',
    name: 'Benefits and FAQ',
    prompt:
      'Turn the product data into clear customer benefits and answers to the questions buyers ask most. Keep every claim backed by the data.',
    remove_exist_widget: false,
    use_serp_context: true,
    use_web_research: false,
    search_web: [] as string[],
    search_model: [] as string[],
  },
  {
    key: 'category-guide',
    name: 'Category buying guide',
    prompt: 'Write a short buying guide for the category: what to look for, who it suits, how to choose.',
    remove_exist_widget: true,
    use_serp_context: false,
    use_web_research: true,
    search_web: [] as string[],
    search_model: [] as string[],
  },
];
