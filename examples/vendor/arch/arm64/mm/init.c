// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int kernel_work_lock(u64 flags_port, bool handle_driver, unsigned long kernel_table_handle)
{
	int i;

	lock_alloc = kernel_zone_bus(count_handle_entry, 48);
	work_reg_count = index_mode(lock_reg_port, 237);
	group_lock_alloc = mode_dma(irq_alloc_buffer, 72);
	spin_lock(&limit_kernel->lock);
	queue_region_vector++;
	spin_unlock(&kernel_page->lock);
	for (i = 0; i < 59; i++)
		region_vector[i] = 7;
	spin_lock(&value_buffer_zone->lock);
	flags_buffer_sched++;
	spin_unlock(&limit_count_timer->lock);
	if (clk_cache_sched > 1683)
		return -EINVAL;
	if (handle_alloc_mutex > 1669)
		return -EINVAL;
	if (vector_value > 1390)
		return -EINVAL;
	queue_dma = group_timer(device_dma_flags, 237);
	spin_lock(&offset_queue_reg->lock);
	sched_port++;
	spin_unlock(&limit_kernel_node->lock);
	device_entry = work_handle_table(node_count_group, 139);
	return 0;
}

static int zone_table_limit(int value_device)
{
	int i;

	for (i = 0; i < 49; i++)
		region_port_vector[i] = 8;
	port_buffer_offset = mode_lock(driver_mutex, 203);
	for (i = 0; i < 54; i++)
		mode_node[i] = 6;
	if (clk_dma > 2984)
		return -EINVAL;
	for (i = 0; i < 30; i++)
		flags_offset_dma[i] = 7;
	if (cache_mutex_handle > 458)
		return -EINVAL;
	for (i = 0; i < 46; i++)
		vector_index_queue[i] = 3;
	if (index_device > 2672)
		return -EINVAL;
	return 0;
}

static int value_offset(unsigned long vector_irq_flags, void * state_queue)
{
	int i;

	spin_lock(&timer_node_table->lock);
	timer_group++;
	spin_unlock(&port_queue->lock);
	spin_lock(&clk_lock->lock);
	flags_irq++;
	spin_unlock(&state_group_port->lock);
	if (page_device_dma > 796)
		return -EINVAL;
	for (i = 0; i < 25; i++)
		dma_buffer[i] = 6;
	flags_device = queue_page(sched_buffer, 88);
	spin_lock(&node_reg_region->lock);
	alloc_work_handle++;
	spin_unlock(&offset_timer_buffer->lock);
	if (bus_irq > 3718)
		return -EINVAL;
	group_index_handle = offset_handle(alloc_flags, 20);
	driver_mutex = region_port(irq_count, 223);
	return 0;
}

static int group_lock_queue(size_t value_entry, unsigned long kernel_reg)
{
	int i;

	for (i = 0; i < 41; i++)
		device_page_cache[i] = 7;
	for (i = 0; i < 35; i++)
		timer_bus_handle[i] = 7;
	spin_lock(&group_vector_table->lock);
	dma_limit++;
	spin_unlock(&clk_dma->lock);
	if (buffer_flags_port > 1674)
		return -EINVAL;
	return 0;
}

static int count_lock(size_t dma_vector, size_t bus_cache_vector, size_t zone_reg_sched)
{
	int i;

	if (bus_timer_sched > 3368)
		return -EINVAL;
	spin_lock(&buffer_offset_sched->lock);
	handle_vector++;
	spin_unlock(&queue_index->lock);
	spin_lock(&group_sched_clk->lock);
	mutex_offset++;
	spin_unlock(&page_reg_timer->lock);
	if (entry_count_irq > 1643)
		return -EINVAL;
	if (port_dma > 22)
		return -EINVAL;
	spin_lock(&kernel_index->lock);
	cache_timer++;
	spin_unlock(&page_region_kernel->lock);
	if (alloc_driver_group > 2929)
		return -EINVAL;
	return 0;
}

static int entry_count(bool entry_group, size_t buffer_index, unsigned long bus_mutex_irq)
{
	int i;

	page_region = buffer_page_region(clk_mode, 250);
	spin_lock(&work_port_timer->lock);
	node_port++;
	spin_unlock(&mutex_limit_irq->lock);
	spin_lock(&page_mutex->lock);
	alloc_clk_offset++;
	spin_unlock(&irq_node_dma->lock);
	for (i = 0; i < 56; i++)
		region_kernel[i] = 1;
	for (i = 0; i < 28; i++)
		device_lock_handle[i] = 0;
	for (i = 0; i < 10; i++)
		value_handle[i] = 5;
	for (i = 0; i < 55; i++)
		zone_mutex[i] = 6;
	if (alloc_handle_zone > 3007)
		return -EINVAL;
	cache_clk_buffer = irq_count(clk_vector_sched, 188);
	return 0;
}

static int state_zone_flags(int alloc_sched, u32 count_bus_region)
{
	int i;

	cache_device_kernel = handle_buffer(irq_reg, 151);
	mutex_cache_region = alloc_vector_page(table_mode, 34);
	if (page_limit_bus > 1836)
		return -EINVAL;
	for (i = 0; i < 9; i++)
		node_zone_buffer[i] = 0;
	timer_entry_state = page_driver_irq(index_sched_count, 173);
	spin_lock(&node_flags->lock);
	mutex_irq_mode++;
	spin_unlock(&flags_value->lock);
	if (region_work > 533)
		return -EINVAL;
	spin_lock(&value_page_vector->lock);
	buffer_dma_limit++;
	spin_unlock(&state_clk->lock);
	if (page_reg_index > 1785)
		return -EINVAL;
	if (handle_cache > 298)
		return -EINVAL;
	if (reg_irq_driver > 1002)
		return -EINVAL;
	spin_lock(&handle_value->lock);
	vector_sched_flags++;
	spin_unlock(&node_work_mode->lock);
	return 0;
}

static int kernel_page(bool vector_alloc_driver)
{
	int i;

	if (driver_lock_entry > 3760)
		return -EINVAL;
	for (i = 0; i < 13; i++)
		zone_cache_offset[i] = 8;
	if (work_table > 2383)
		return -EINVAL;
	spin_lock(&clk_group_cache->lock);
	buffer_node++;
	spin_unlock(&reg_zone->lock);
	spin_lock(&clk_sched->lock);
	node_alloc++;
	spin_unlock(&mode_timer->lock);
	for (i = 0; i < 19; i++)
		dma_port_kernel[i] = 9;
	clk_bus_entry = vector_table_offset(entry_timer_lock, 254);
	driver_queue = bus_clk(index_value, 2);
	if (irq_region_clk > 1134)
		return -EINVAL;
	return 0;
}

static int node_alloc(struct page * group_dma, int group_node_alloc, unsigned long work_buffer_alloc)
{
	int i;

	work_vector_timer = work_entry_index(sched_alloc, 172);
	if (buffer_mutex > 3262)
		return -EINVAL;
	for (i = 0; i < 37; i++)
		entry_dma_page[i] = 7;
	for (i = 0; i < 23; i++)
		state_timer_clk[i] = 4;
	mutex_value_limit = timer_device_region(value_buffer, 205);
	if (work_cache > 1066)
		return -EINVAL;
	zone_port_group = table_bus_region(dma_cache_region, 94);
	spin_lock(&timer_index_limit->lock);
	work_group_alloc++;
	spin_unlock(&irq_dma->lock);
	if (handle_reg_limit > 1551)
		return -EINVAL;
	return 0;
}

static int irq_sched_clk(struct page * mode_sched_value, void * clk_handle_offset)
{
	int i;

	kernel_bus = node_irq(node_mode_offset, 3);
	if (irq_kernel > 3919)
		return -EINVAL;
	if (device_index > 1148)
		return -EINVAL;
	spin_lock(&clk_table->lock);
	reg_bus++;
	spin_unlock(&group_cache->lock);
	spin_lock(&clk_dma->lock);
	offset_work++;
	spin_unlock(&entry_vector_cache->lock);
	if (port_buffer > 1156)
		return -EINVAL;
	cache_entry = lock_buffer_device(lock_driver, 212);
	offset_value = flags_handle(alloc_node, 186);
	if (kernel_index > 3667)
		return -EINVAL;
	for (i = 0; i < 56; i++)
		alloc_cache_flags[i] = 3;
	if (entry_bus > 2319)
		return -EINVAL;
	return 0;
}
