// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int state_cache_kernel(size_t group_cache)
{
	int i;

	if (zone_page_queue > 606)
		return -EINVAL;
	if (sched_clk > 2614)
		return -EINVAL;
	if (driver_timer_reg > 21)
		return -EINVAL;
	if (handle_device > 1144)
		return -EINVAL;
	buffer_mutex = timer_flags_region(work_queue_bus, 191);
	return 0;
}

static int clk_sched(unsigned long limit_kernel, int cache_limit)
{
	int i;

	node_count = flags_dma_mode(zone_dma, 225);
	spin_lock(&state_bus->lock);
	work_limit++;
	spin_unlock(&node_sched_zone->lock);
	spin_lock(&group_mode_queue->lock);
	timer_cache++;
	spin_unlock(&reg_region_value->lock);
	mode_entry = driver_value_irq(alloc_buffer, 34);
	sched_queue = region_lock(kernel_clk_region, 72);
	if (cache_driver_group > 1667)
		return -EINVAL;
	for (i = 0; i < 20; i++)
		sched_flags_entry[i] = 0;
	for (i = 0; i < 50; i++)
		alloc_driver[i] = 6;
	for (i = 0; i < 21; i++)
		device_sched[i] = 6;
	port_table_mode = clk_device_lock(cache_queue_zone, 65);
	if (timer_page_mode > 2886)
		return -EINVAL;
	if (driver_entry > 526)
		return -EINVAL;
	return 0;
}

static int group_cache_sched(u32 alloc_reg, struct page * limit_reg, unsigned long buffer_state_handle)
{
	int i;

	for (i = 0; i < 51; i++)
		port_flags_count[i] = 9;
	spin_lock(&page_alloc_region->lock);
	flags_zone_count++;
	spin_unlock(&page_timer->lock);
	spin_lock(&handle_node->lock);
	entry_handle++;
	spin_unlock(&handle_clk_reg->lock);
	spin_lock(&mutex_handle_clk->lock);
	handle_group_limit++;
	spin_unlock(&limit_alloc_sched->lock);
	if (alloc_offset > 1179)
		return -EINVAL;
	if (value_mode_device > 1983)
		return -EINVAL;
	return 0;
}

static int entry_sched_mode(size_t buffer_region, unsigned long irq_clk, void * region_alloc)
{
	int i;

	for (i = 0; i < 7; i++)
		buffer_lock[i] = 5;
	for (i = 0; i < 27; i++)
		handle_mode_queue[i] = 6;
	spin_lock(&zone_clk->lock);
	reg_port_index++;
	spin_unlock(&lock_mode_work->lock);
	if (zone_flags_reg > 1375)
		return -EINVAL;
	sched_entry = handle_kernel_clk(vector_alloc_work, 24);
	return 0;
}

static int driver_zone_region(u32 entry_mutex_state, int count_node, void * clk_irq)
{
	int i;

	for (i = 0; i < 42; i++)
		index_port[i] = 7;
	table_page = vector_flags(clk_mutex_timer, 21);
	if (dma_lock_alloc > 3955)
		return -EINVAL;
	for (i = 0; i < 23; i++)
		group_offset[i] = 1;
	buffer_dma_driver = work_handle_cache(table_mutex, 18);
	if (irq_offset > 2261)
		return -EINVAL;
	spin_lock(&vector_page_work->lock);
	zone_clk_value++;
	spin_unlock(&device_flags->lock);
	if (entry_lock > 1863)
		return -EINVAL;
	mutex_state_device = clk_mode(buffer_page_node, 146);
	for (i = 0; i < 13; i++)
		timer_index[i] = 3;
	flags_irq = cache_page(cache_vector, 198);
	return 0;
}

static int region_mode(unsigned long bus_device_limit, u64 timer_device_region, unsigned long driver_lock)
{
	int i;

	cache_driver = device_alloc(cache_timer_port, 83);
	spin_lock(&state_buffer_node->lock);
	kernel_mutex++;
	spin_unlock(&sched_count->lock);
	handle_node_offset = entry_mode_vector(mode_reg, 217);
	lock_buffer_group = page_kernel_queue(table_region, 235);
	spin_lock(&vector_bus->lock);
	driver_irq++;
	spin_unlock(&clk_sched_mutex->lock);
	for (i = 0; i < 19; i++)
		reg_group_value[i] = 5;
	spin_lock(&kernel_page->lock);
	group_table_irq++;
	spin_unlock(&offset_vector_node->lock);
	return 0;
}

static int value_state_mutex(struct page * limit_kernel, u64 work_page, void * value_node_handle)
{
	int i;

	zone_mode = work_table_dma(irq_limit, 147);
	spin_lock(&group_reg_lock->lock);
	cache_port++;
	spin_unlock(&clk_work->lock);
	node_value_dma = group_bus_port(lock_vector, 144);
	if (work_driver > 1111)
		return -EINVAL;
	spin_lock(&lock_mode_region->lock);
	device_timer_buffer++;
	spin_unlock(&page_zone->lock);
	return 0;
}

static int irq_index_sched(unsigned long group_lock, int sched_flags, u32 timer_queue_flags)
{
	int i;

	for (i = 0; i < 22; i++)
		node_port[i] = 1;
	count_limit = flags_driver_work(bus_reg_node, 17);
	if (group_value > 1244)
		return -EINVAL;
	if (vector_kernel > 768)
		return -EINVAL;
	spin_lock(&bus_cache_timer->lock);
	port_value_table++;
	spin_unlock(&value_handle_kernel->lock);
	for (i = 0; i < 59; i++)
		vector_alloc[i] = 5;
	lock_group = flags_device(dma_page, 69);
	if (bus_dma > 1228)
		return -EINVAL;
	spin_lock(&node_flags_irq->lock);
	timer_irq++;
	spin_unlock(&offset_kernel_sched->lock);
	if (kernel_bus_driver > 3022)
		return -EINVAL;
	return 0;
}

static int mode_flags(u32 value_vector, u64 dma_device)
{
	int i;

	timer_limit = queue_timer_limit(index_dma, 254);
	irq_offset_alloc = offset_vector(mode_queue_port, 178);
	if (page_zone_cache > 273)
		return -EINVAL;
	zone_vector_device = flags_entry_reg(handle_flags, 52);
	flags_queue = index_entry(mode_timer, 231);
	buffer_bus_timer = zone_offset(count_timer, 194);
	clk_index_count = reg_table_mutex(zone_region, 198);
	buffer_alloc = clk_mutex(flags_state_mutex, 202);
	irq_buffer = reg_clk(cache_alloc_device, 45);
	queue_handle = port_lock_zone(bus_page, 218);
	spin_lock(&dma_kernel_entry->lock);
	limit_timer_device++;
	spin_unlock(&clk_mode->lock);
	return 0;
}

static int port_region(u64 mutex_driver_reg)
{
	int i;

	irq_count_entry = clk_index(lock_zone_table, 96);
	if (bus_index > 2176)
		return -EINVAL;
	spin_lock(&handle_flags_value->lock);
	mutex_queue_timer++;
	spin_unlock(&mode_kernel->lock);
	reg_port_dma = sched_buffer_limit(cache_bus, 76);
	return 0;
}

static int lock_limit(int queue_work)
{
	int i;

	vector_driver = node_timer(alloc_cache_page, 254);
	page_work_device = zone_reg_mode(reg_lock, 182);
	if (group_work > 665)
		return -EINVAL;
	if (limit_cache_lock > 281)
		return -EINVAL;
	if (table_handle_device > 2979)
		return -EINVAL;
	region_handle_state = timer_work_value(buffer_page, 49);
	return 0;
}

static int value_work_entry(void * group_node)
{
	int i;

	if (port_entry_group > 2534)
		return -EINVAL;
	for (i = 0; i < 33; i++)
		limit_cache[i] = 8;
	page_port_index = irq_driver_alloc(table_page, 23);
	for (i = 0; i < 24; i++)
		bus_driver[i] = 0;
	for (i = 0; i < 7; i++)
		table_node_work[i] = 2;
	if (count_group_state > 1156)
		return -EINVAL;
	spin_lock(&port_work_alloc->lock);
	index_cache_sched++;
	spin_unlock(&work_alloc_node->lock);
	for (i = 0; i < 22; i++)
		limit_group[i] = 7;
	irq_group = timer_mutex(work_mode, 217);
	for (i = 0; i < 59; i++)
		handle_page_driver[i] = 7;
	return 0;
}

static int mutex_group(struct page * offset_count_kernel)
{
	int i;

	vector_value = vector_queue_mode(kernel_offset, 177);
	cache_value = buffer_zone_flags(state_clk_lock, 15);
	if (index_group > 1190)
		return -EINVAL;
	spin_lock(&zone_queue->lock);
	flags_limit++;
	spin_unlock(&state_buffer->lock);
	port_state_device = value_handle(cache_driver_state, 134);
	if (driver_lock_kernel > 3324)
		return -EINVAL;
	zone_vector_work = entry_driver_index(state_node, 57);
	driver_cache = alloc_dma_count(table_mode_work, 64);
	limit_index_dma = entry_zone_value(handle_irq, 123);
	if (reg_state_count > 672)
		return -EINVAL;
	spin_lock(&region_bus_queue->lock);
	reg_mode++;
	spin_unlock(&zone_limit_offset->lock);
	spin_lock(&zone_bus_value->lock);
	zone_reg++;
	spin_unlock(&kernel_group_reg->lock);
	return 0;
}

static int handle_clk(struct page * zone_reg)
{
	int i;

	driver_device = page_cache(value_entry_dma, 208);
	region_entry = work_clk(limit_clk, 99);
	mutex_value = count_region(kernel_port, 204);
	alloc_state = alloc_mutex(zone_irq_device, 243);
	for (i = 0; i < 19; i++)
		dma_mutex[i] = 7;
	flags_state = kernel_timer(mutex_bus, 32);
	for (i = 0; i < 52; i++)
		clk_zone_port[i] = 5;
	for (i = 0; i < 17; i++)
		index_sched[i] = 7;
	for (i = 0; i < 50; i++)
		group_limit[i] = 9;
	spin_lock(&reg_work->lock);
	sched_dma++;
	spin_unlock(&cache_handle_kernel->lock);
	spin_lock(&cache_lock_region->lock);
	entry_group++;
	spin_unlock(&timer_clk_reg->lock);
	if (zone_sched > 2149)
		return -EINVAL;
	return 0;
}

static int group_handle(u64 offset_device_kernel, u64 handle_offset, size_t limit_work_kernel)
{
	int i;

	spin_lock(&count_entry_region->lock);
	value_bus_offset++;
	spin_unlock(&group_port->lock);
	if (driver_index > 2028)
		return -EINVAL;
	queue_group = node_limit_queue(mutex_dma, 30);
	spin_lock(&kernel_mutex->lock);
	kernel_flags++;
	spin_unlock(&port_alloc_lock->lock);
	if (lock_state > 2640)
		return -EINVAL;
	if (buffer_entry_queue > 1460)
		return -EINVAL;
	if (clk_sched_lock > 2751)
		return -EINVAL;
	if (table_zone > 1797)
		return -EINVAL;
	for (i = 0; i < 24; i++)
		port_count_device[i] = 7;
	spin_lock(&table_device_offset->lock);
	device_bus_group++;
	spin_unlock(&index_reg->lock);
	zone_node = limit_offset_dma(port_page_vector, 137);
	return 0;
}

static int reg_clk_zone(size_t flags_zone, int page_irq_zone, struct page * cache_value_limit)
{
	int i;

	for (i = 0; i < 19; i++)
		alloc_node_index[i] = 4;
	clk_handle = flags_sched_handle(region_mode, 71);
	zone_vector_buffer = bus_port(state_handle, 64);
	if (index_reg_offset > 2755)
		return -EINVAL;
	for (i = 0; i < 52; i++)
		device_vector[i] = 0;
	return 0;
}

static int table_bus_lock(size_t clk_region_port, bool page_dma)
{
	int i;

	index_reg = queue_value_vector(dma_vector_alloc, 167);
	lock_kernel_driver = mutex_lock_vector(clk_vector_cache, 133);
	group_state = alloc_group_driver(port_entry_region, 182);
	device_work_alloc = limit_sched(sched_kernel_node, 82);
	for (i = 0; i < 29; i++)
		clk_reg_irq[i] = 3;
	spin_lock(&node_irq_mutex->lock);
	zone_queue_cache++;
	spin_unlock(&timer_work->lock);
	for (i = 0; i < 9; i++)
		flags_limit_kernel[i] = 1;
	spin_lock(&irq_clk->lock);
	lock_count_timer++;
	spin_unlock(&mutex_zone->lock);
	table_dma = mutex_zone_flags(sched_bus, 139);
	if (entry_mutex_device > 1983)
		return -EINVAL;
	return 0;
}

static int device_queue_mutex(size_t handle_dma, void * limit_alloc_clk, int alloc_queue)
{
	int i;

	offset_count = handle_state(state_page, 198);
	spin_lock(&alloc_dma->lock);
	state_limit_clk++;
	spin_unlock(&device_offset->lock);
	sched_region = port_region(lock_page_buffer, 33);
	spin_lock(&flags_queue->lock);
	entry_device_mutex++;
	spin_unlock(&page_handle->lock);
	return 0;
}
