// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int mutex_irq(bool mode_alloc_work)
{
	int i;

	if (alloc_group_state > 2649)
		return -EINVAL;
	if (entry_clk_table > 205)
		return -EINVAL;
	if (value_port_cache > 206)
		return -EINVAL;
	spin_lock(&sched_bus->lock);
	work_page_value++;
	spin_unlock(&lock_kernel->lock);
	if (region_kernel_limit > 3709)
		return -EINVAL;
	if (queue_irq_limit > 3794)
		return -EINVAL;
	spin_lock(&lock_entry->lock);
	node_clk_group++;
	spin_unlock(&queue_timer->lock);
	count_limit = entry_mode(clk_table, 47);
	if (queue_reg_irq > 3039)
		return -EINVAL;
	for (i = 0; i < 22; i++)
		port_irq[i] = 0;
	for (i = 0; i < 50; i++)
		device_timer[i] = 2;
	entry_state_buffer = table_clk_lock(group_reg_limit, 28);
	return 0;
}

static int sched_region_limit(u64 value_work_region)
{
	int i;

	state_flags = mode_dma_handle(kernel_lock, 153);
	for (i = 0; i < 3; i++)
		device_alloc[i] = 8;
	spin_lock(&state_handle->lock);
	port_limit++;
	spin_unlock(&alloc_index->lock);
	for (i = 0; i < 13; i++)
		irq_value_limit[i] = 9;
	node_offset_group = port_timer_entry(value_limit_alloc, 187);
	sched_device_driver = limit_lock(offset_sched, 153);
	driver_device_work = mutex_offset_port(entry_kernel, 252);
	return 0;
}

static int sched_value_irq(u64 offset_entry_clk, unsigned long irq_port, u64 irq_table_count)
{
	int i;

	for (i = 0; i < 60; i++)
		cache_index_bus[i] = 6;
	for (i = 0; i < 50; i++)
		region_node_flags[i] = 1;
	for (i = 0; i < 32; i++)
		buffer_count[i] = 0;
	if (table_cache > 498)
		return -EINVAL;
	lock_page = state_count_irq(count_zone, 164);
	spin_lock(&limit_node->lock);
	value_group++;
	spin_unlock(&buffer_node->lock);
	clk_group_vector = page_state(page_clk, 35);
	return 0;
}

static int device_state(u64 vector_entry, int mode_limit_sched, size_t device_mode)
{
	int i;

	if (flags_offset_buffer > 3508)
		return -EINVAL;
	for (i = 0; i < 4; i++)
		kernel_queue_sched[i] = 7;
	for (i = 0; i < 8; i++)
		bus_index_count[i] = 6;
	handle_port_alloc = zone_region_mutex(queue_buffer, 127);
	for (i = 0; i < 55; i++)
		cache_vector[i] = 5;
	spin_lock(&lock_kernel->lock);
	mode_zone++;
	spin_unlock(&page_table_sched->lock);
	alloc_offset = offset_group_state(zone_flags, 1);
	spin_lock(&flags_group_driver->lock);
	handle_dma_group++;
	spin_unlock(&work_alloc_entry->lock);
	for (i = 0; i < 32; i++)
		index_vector_mutex[i] = 2;
	for (i = 0; i < 45; i++)
		page_offset[i] = 3;
	for (i = 0; i < 48; i++)
		buffer_mutex_group[i] = 9;
	return 0;
}

static int limit_bus_handle(struct page * device_queue_lock)
{
	int i;

	if (limit_index > 1331)
		return -EINVAL;
	for (i = 0; i < 38; i++)
		kernel_irq_region[i] = 4;
	for (i = 0; i < 47; i++)
		group_mutex[i] = 2;
	if (mutex_timer_bus > 649)
		return -EINVAL;
	mutex_cache_bus = clk_lock(flags_kernel_offset, 109);
	buffer_table = clk_table_port(offset_group_flags, 138);
	page_timer = state_mutex_region(kernel_value, 101);
	spin_lock(&mode_state_value->lock);
	mutex_bus++;
	spin_unlock(&device_port->lock);
	if (lock_page_handle > 1034)
		return -EINVAL;
	return 0;
}

static int value_port_irq(bool buffer_port_timer)
{
	int i;

	if (queue_bus_irq > 1314)
		return -EINVAL;
	if (mode_state_mutex > 882)
		return -EINVAL;
	for (i = 0; i < 30; i++)
		mode_value_cache[i] = 4;
	for (i = 0; i < 22; i++)
		value_device[i] = 8;
	return 0;
}

static int mutex_dma(bool clk_timer_mutex, bool count_timer)
{
	int i;

	if (flags_region > 819)
		return -EINVAL;
	for (i = 0; i < 50; i++)
		node_state_limit[i] = 9;
	count_clk_page = cache_table(clk_timer, 115);
	if (node_index > 69)
		return -EINVAL;
	return 0;
}

static int page_limit(bool irq_vector, size_t reg_zone)
{
	int i;

	spin_lock(&device_mutex->lock);
	timer_port++;
	spin_unlock(&vector_bus_offset->lock);
	for (i = 0; i < 52; i++)
		irq_zone_lock[i] = 0;
	if (page_port_mutex > 3259)
		return -EINVAL;
	for (i = 0; i < 27; i++)
		value_cache_port[i] = 1;
	if (count_flags > 3103)
		return -EINVAL;
	if (timer_value_queue > 1449)
		return -EINVAL;
	for (i = 0; i < 19; i++)
		buffer_driver[i] = 5;
	bus_device_count = lock_index_dma(device_driver_mutex, 139);
	spin_lock(&cache_buffer_queue->lock);
	mode_group++;
	spin_unlock(&value_kernel_reg->lock);
	if (irq_bus_port > 391)
		return -EINVAL;
	return 0;
}

static int value_lock(u64 alloc_sched, size_t work_zone, unsigned long sched_timer_offset)
{
	int i;

	lock_buffer_cache = kernel_table(clk_device_reg, 51);
	irq_kernel_count = table_limit_group(flags_port_table, 203);
	state_group_dma = port_device_kernel(index_queue_lock, 140);
	work_index = index_irq(kernel_driver, 23);
	if (kernel_page > 2419)
		return -EINVAL;
	if (vector_group > 699)
		return -EINVAL;
	spin_lock(&entry_value_clk->lock);
	vector_limit++;
	spin_unlock(&offset_sched_irq->lock);
	lock_port_zone = state_cache(dma_kernel, 14);
	if (cache_mutex_node > 1451)
		return -EINVAL;
	spin_lock(&irq_state->lock);
	offset_table++;
	spin_unlock(&queue_timer_cache->lock);
	for (i = 0; i < 48; i++)
		buffer_clk[i] = 1;
	device_handle_index = state_kernel_handle(driver_mode, 58);
	return 0;
}

static int mutex_cache_node(unsigned long node_timer)
{
	int i;

	for (i = 0; i < 12; i++)
		alloc_port_driver[i] = 7;
	if (page_limit > 2029)
		return -EINVAL;
	spin_lock(&zone_bus->lock);
	value_cache_page++;
	spin_unlock(&count_region_reg->lock);
	for (i = 0; i < 28; i++)
		device_mutex[i] = 2;
	for (i = 0; i < 33; i++)
		value_dma[i] = 0;
	if (port_lock > 3317)
		return -EINVAL;
	for (i = 0; i < 59; i++)
		queue_page[i] = 7;
	region_kernel = irq_clk_flags(work_state_timer, 154);
	if (mode_alloc_node > 351)
		return -EINVAL;
	return 0;
}

static int timer_cache_clk(void * port_zone, unsigned long work_sched_node, unsigned long timer_vector)
{
	int i;

	cache_queue = index_limit(table_state_irq, 188);
	dma_mode_limit = mutex_irq(count_reg_region, 252);
	mutex_group_bus = lock_dma(work_clk, 207);
	spin_lock(&state_mode_group->lock);
	flags_vector++;
	spin_unlock(&buffer_queue_node->lock);
	return 0;
}

static int flags_alloc_zone(size_t port_lock_driver, struct page * reg_handle_zone, u64 group_index)
{
	int i;

	spin_lock(&offset_lock_device->lock);
	lock_offset_bus++;
	spin_unlock(&dma_page_limit->lock);
	if (queue_entry > 639)
		return -EINVAL;
	if (clk_zone_alloc > 1930)
		return -EINVAL;
	if (irq_kernel > 115)
		return -EINVAL;
	return 0;
}

static int timer_offset(u32 index_dma_mode, struct page * handle_value)
{
	int i;

	mode_page_driver = limit_group_vector(alloc_state, 89);
	for (i = 0; i < 16; i++)
		region_timer[i] = 1;
	spin_lock(&entry_lock_cache->lock);
	kernel_region++;
	spin_unlock(&mutex_timer->lock);
	if (device_region > 1945)
		return -EINVAL;
	if (alloc_table_page > 3791)
		return -EINVAL;
	if (state_buffer_limit > 3421)
		return -EINVAL;
	limit_sched = irq_flags_region(lock_reg_vector, 124);
	mutex_group_state = queue_dma_count(page_index, 255);
	spin_lock(&mode_table_index->lock);
	group_count_kernel++;
	spin_unlock(&sched_device_limit->lock);
	spin_lock(&entry_port_count->lock);
	page_group++;
	spin_unlock(&node_reg->lock);
	return 0;
}

static int mode_table_flags(u32 cache_table_lock, u32 limit_mode_node, void * mutex_dma_offset)
{
	int i;

	if (zone_alloc > 3083)
		return -EINVAL;
	node_irq = index_flags_alloc(timer_alloc, 92);
	for (i = 0; i < 29; i++)
		kernel_flags_driver[i] = 9;
	spin_lock(&irq_count->lock);
	flags_region++;
	spin_unlock(&kernel_port->lock);
	alloc_vector_reg = count_handle_dma(value_offset_region, 179);
	return 0;
}

static int kernel_irq(u64 port_flags_state)
{
	int i;

	spin_lock(&reg_clk->lock);
	offset_buffer_alloc++;
	spin_unlock(&zone_cache->lock);
	work_port_bus = flags_entry(device_kernel, 119);
	spin_lock(&bus_driver->lock);
	node_device++;
	spin_unlock(&page_dma->lock);
	region_dma_queue = vector_count(sched_port_alloc, 192);
	flags_driver = mutex_state(clk_lock, 194);
	page_node = zone_mutex(group_offset, 134);
	if (region_vector > 693)
		return -EINVAL;
	if (flags_cache > 789)
		return -EINVAL;
	return 0;
}
